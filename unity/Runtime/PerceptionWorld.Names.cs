using System.Collections.Generic;

namespace Argus.Perception
{
    // Names: every guard (PerceptionAgent), target (PerceptionTarget) and occluder (PerceptionOccluder, and
    // those of the collider scan) labels its native thing with its GameObject's name, so that recordings
    // and the inspector say "G1" and "Player" where they would say #3 (World.SetLabel; docs/recording.md,
    // "Names"). Unity has no event for a renamed GameObject, and reading `name` allocates a string, so the
    // world does not read every name every frame. It reads a name:
    //   - when the native thing is created (the component enabled, the world enabled);
    //   - at the next step after that (a spawner that renames what it has just instantiated);
    //   - for every member when a recording starts (recordOnStart, flightRecorder, StartRecording...), so
    //     that the recording begins with the names of that moment;
    //   - while recording, NamesPerStep members per step in turn: a rename during a recording reaches it
    //     within (guards + targets + occluders) / NamesPerStep steps;
    //   - at RefreshNames(), for a script that wants a rename recorded at once.
    // A name longer than a label (255 bytes of UTF-8) is cut at a character boundary.
    public sealed partial class PerceptionWorld
    {
        /// <summary>While recording, how many guards, targets and occluders have their GameObject's name read
        /// per step, in turn (a rename reaches the recording within count / NamesPerStep steps).</summary>
        public const int NamesPerStep = 16;

        // Members that joined since the last step: their names are read again at the next one.
        readonly List<IWorldMember> m_NamesAtNextStep = new List<IWorldMember>();
        int m_NameCursor;

        /// <summary>Labels every guard's, target's and occluder's native thing with its GameObject's name now,
        /// where the name changed since it was last read. The world does this when a recording starts, and
        /// while recording reads NamesPerStep names per step in turn; call it after renaming GameObjects to
        /// have the recording hold the new names from the next step on. Nothing while disabled.</summary>
        public void RefreshNames()
        {
            if (m_World == null) return;
            for (int i = 0; i < m_Agents.Count; i++) PushName(m_Agents[i]);
            for (int i = 0; i < m_Targets.Count; i++) PushName(m_Targets[i]);
            for (int i = 0; i < m_Occluders.Count; i++) PushName(m_Occluders[i]);
            m_NamesAtNextStep.Clear();
        }

        /// <summary>Each step, before the native step: the names of members that joined since the last step;
        /// while recording, NamesPerStep more in turn.</summary>
        void PushNames()
        {
            for (int i = 0; i < m_NamesAtNextStep.Count; i++) PushName(m_NamesAtNextStep[i]);
            m_NamesAtNextStep.Clear();
            if (!m_World.IsRecording) return;
            int total = m_Agents.Count + m_Targets.Count + m_Occluders.Count;
            for (int k = 0; k < NamesPerStep && k < total; k++)
            {
                if (m_NameCursor >= total) m_NameCursor = 0;
                int i = m_NameCursor++;
                if (i < m_Agents.Count) PushName(m_Agents[i]);
                else if ((i -= m_Agents.Count) < m_Targets.Count) PushName(m_Targets[i]);
                else PushName(m_Occluders[i - m_Targets.Count]);
            }
        }

        /// <summary>member.PushName(), a failure logged (a name never keeps a member out of the world).</summary>
        internal static void PushName(IWorldMember member)
        {
            try
            {
                member.PushName();
            }
            catch (System.Exception e)
            {
                UnityEngine.Debug.LogException(e, member as UnityEngine.Object);
            }
        }
    }
}
