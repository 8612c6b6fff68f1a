using System;

namespace Argus
{
    public sealed unsafe partial class World
    {
        // ---- beliefs: where an agent searching by belief thinks its target can be now ----------------
        // (BrainSettings.Search = SearchKind.Belief, over the world's walk graph)

        /// <summary>What agent believes now about where its focus is: true and info filled while it keeps a
        /// belief (it searches by belief and chases or searches for a target over the walk graph), false
        /// otherwise. Throws for an unknown agent.</summary>
        public bool TryGetBelief(AgentId agent, out BeliefInfo info)
        {
            BeliefInfo i;
            byte has;
            Check(NativeMethods.argus_agent_get_belief_info(H, agent, &i, &has));
            info = i;
            return has != 0;
        }

        /// <summary>Copies every walk-graph node's probability (node order, as <see cref="GetWalkNodes"/>; they
        /// sum to 1) of agent's belief into buffer (grown when too small; reuse it to avoid allocating);
        /// returns the node count, 0 when the agent keeps no belief.</summary>
        public int GetBelief(AgentId agent, ref float[] buffer)
        {
            if (buffer == null) buffer = new float[1];
            while (true)
            {
                uint n;
                Result r;
                fixed (float* p = buffer)
                    r = NativeMethods.argus_agent_get_belief(H, agent, p, (uint)buffer.Length, &n);
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    return (int)n;
                }
                buffer = new float[n];
            }
        }

        /// <summary>The probability agent's belief gives the walk-graph node nearest position (0 off the
        /// graph, or when it keeps no belief).</summary>
        public float GetBeliefAt(AgentId agent, Vec3 position)
        {
            float p;
            Check(NativeMethods.argus_agent_get_belief_at(H, agent, position, &p));
            return p;
        }

        /// <summary>The best places for agent to search, most probable first: up to buffer.Length written;
        /// returns how many (0 when it keeps no belief).</summary>
        public int GetSearchPoints(AgentId agent, SearchPoint[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            uint n;
            fixed (SearchPoint* p = buffer)
                Check(NativeMethods.argus_agent_get_search_points(H, agent, p, (uint)buffer.Length, &n));
            return (int)n;
        }
    }
}
