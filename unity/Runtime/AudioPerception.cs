using System;
using UnityEngine;

namespace Argus.Perception
{
    /// <summary>
    /// The lesson's static sound bus (§5): anything calls EmitSound, without knowing any listener.
    /// Every enabled PerceptionWorld receives the sound and tests it against every HearingSensor at
    /// its next step (the native hearing check: distance &lt;= loudness × hearingSensitivity);
    /// OnSoundEmitted is still raised at once for scripts that listen to the bus themselves.
    /// </summary>
    public static class AudioPerception
    {
        /// <summary>Raised by every EmitSound, before the worlds hear it.</summary>
        public static event Action<SoundEvent> OnSoundEmitted;

        /// <summary>A sound of radius <paramref name="loudness"/> metres at <paramref name="position"/>,
        /// made by <paramref name="source"/> (may be null: an anonymous noise on team 1, layer Default).</summary>
        public static void EmitSound(Vector3 position, float loudness, GameObject source)
        {
            EmitSound(position, loudness, source, -1, 0);
        }

        /// <summary>Beyond the lesson: the same with an explicit team (0..63; -1 = the source's) and
        /// sound layers (a mask matched against HearingSensor.soundMask; 0 = the source's layer).</summary>
        public static void EmitSound(Vector3 position, float loudness, GameObject source, int team, int layerMask)
        {
            Action<SoundEvent> handler = OnSoundEmitted;
            if (handler != null)
            {
                SoundEvent e;
                e.position = position;
                e.loudness = loudness;
                e.source = source;
                handler(e);
            }
            PerceptionTarget target = source != null ? source.GetComponent<PerceptionTarget>() : null;
            var worlds = PerceptionWorld.Enabled;
            if (worlds.Count == 0 && !s_WarnedNoWorld)
            {
                s_WarnedNoWorld = true;
                UnityEngine.Debug.LogWarning("Argus: AudioPerception.EmitSound with no enabled PerceptionWorld: no guard hears it. "
                    + "Add a PerceptionWorld to the scene (GameObject > Argus > Perception World). Warned once until a world is enabled.", source);
            }
            for (int i = 0; i < worlds.Count; i++)
            {
                SoundDef def = SoundDef.Default();
                def.Position = UnityArgus.ToArgus(position);
                def.Loudness = loudness;
                if (source != null) def.Layers = UnityArgus.LayerBit(source);
                if (target != null && target.World == worlds[i])
                {
                    def.Source = target.Id;
                    def.Team = (uint)target.team;
                }
                else if (source != null)
                {
                    PerceptionAgent agent = source.GetComponent<PerceptionAgent>();
                    if (agent != null) def.Team = (uint)agent.team;
                }
                if (team >= 0) def.Team = (uint)team;
                if (layerMask != 0) def.Layers = unchecked((uint)layerMask);
                worlds[i].Native.EmitSound(def);
            }
        }

        static bool s_WarnedNoWorld;

        /// <summary>A world was enabled: the next sound made with none warns again.</summary>
        internal static void WorldEnabled() { s_WarnedNoWorld = false; }

        internal static void ResetSubscribers()
        {
            OnSoundEmitted = null;
            s_WarnedNoWorld = false;
        }
    }
}
