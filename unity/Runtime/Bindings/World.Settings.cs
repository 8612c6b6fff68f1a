namespace Argus
{
    public sealed unsafe partial class World
    {
        // Per-sense settings of a live agent: read one group, change what you need, write it back.
        // A refused group (NaN, out of range) leaves the agent unchanged.

        /// <summary>The agent's sight settings (FieldOfViewSensor's fields).</summary>
        public SightSettings GetSight(AgentId agent)
        {
            SightSettings s;
            Check(NativeMethods.argus_agent_get_sight(H, agent, &s));
            return s;
        }

        /// <summary>Replaces the agent's sight settings.</summary>
        public void SetSight(AgentId agent, SightSettings settings) { Check(NativeMethods.argus_agent_set_sight(H, agent, &settings)); }

        /// <summary>The agent's hearing settings (HearingSensor's fields).</summary>
        public HearingSettings GetHearing(AgentId agent)
        {
            HearingSettings s;
            Check(NativeMethods.argus_agent_get_hearing(H, agent, &s));
            return s;
        }

        /// <summary>Replaces the agent's hearing settings.</summary>
        public void SetHearing(AgentId agent, HearingSettings settings) { Check(NativeMethods.argus_agent_set_hearing(H, agent, &settings)); }

        /// <summary>The agent's memory settings (PerceptionMemory's decay and forget threshold).</summary>
        public MemorySettings GetMemorySettings(AgentId agent)
        {
            MemorySettings s;
            Check(NativeMethods.argus_agent_get_memory_settings(H, agent, &s));
            return s;
        }

        /// <summary>Replaces the agent's memory settings.</summary>
        public void SetMemorySettings(AgentId agent, MemorySettings settings)
        {
            Check(NativeMethods.argus_agent_set_memory_settings(H, agent, &settings));
        }

        /// <summary>The agent's brain settings (EnemyBrain's search duration, investigate timeout; belief search).</summary>
        public BrainSettings GetBrain(AgentId agent)
        {
            BrainSettings s;
            Check(NativeMethods.argus_agent_get_brain(H, agent, &s));
            return s;
        }

        /// <summary>Replaces the agent's brain settings.</summary>
        public void SetBrain(AgentId agent, BrainSettings settings) { Check(NativeMethods.argus_agent_set_brain(H, agent, &settings)); }

        /// <summary>The agent's awareness settings.</summary>
        public AwarenessSettings GetAwareness(AgentId agent)
        {
            AwarenessSettings s;
            Check(NativeMethods.argus_agent_get_awareness(H, agent, &s));
            return s;
        }

        /// <summary>Replaces the agent's awareness settings.</summary>
        public void SetAwareness(AgentId agent, AwarenessSettings settings)
        {
            Check(NativeMethods.argus_agent_set_awareness(H, agent, &settings));
        }
    }
}
