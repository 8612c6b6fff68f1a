using System;
using System.Text;

namespace Argus
{
    public sealed unsafe partial class World
    {
        // ---- labels: the engine's names for the things of a world ---------------------------------------------
        //
        // "G1", "player", "north wall": recordings keep them and the inspector shows them where it would show
        // #3 (docs/recording.md, "Names"). A label changes nothing the world decides; a snapshot (Save) does
        // not hold labels; a world rebuilt by FromRecording has the labels the recorded one had at that step.
        // Labels cross the C ABI as UTF-8 (never the platform's ANSI code page), so any name round-trips.

        // A label with its NUL always fits here.
        const int LabelCapacity = (int)Constants.MAX_LABEL_BYTES + 1;

        /// <summary>Names an agent (<paramref name="label"/> null or "": its name removed). Recorded (a
        /// recording's NAMES) and forgotten with the agent. Refused, changing nothing: ArgusException
        /// InvalidId for an agent not in this world (null, destroyed, another world's); ArgusException
        /// InvalidArgument for a label longer than <see cref="Constants.MAX_LABEL_BYTES"/> (255) bytes of
        /// UTF-8 — bytes, not characters: "é" takes 2, "プ" 3, an emoji 4 — the message giving its size;
        /// ArgumentException for a label holding a NUL character.</summary>
        public void SetLabel(AgentId agent, string label)
        {
            byte[] utf8 = LabelBytes(label);
            WorldHandle h = H;
            Result r;
            fixed (byte* p = utf8) r = NativeMethods.argus_agent_set_label(h, agent, p);
            LabelSet(r, utf8, label);
        }

        /// <summary>Names a target, as <see cref="SetLabel(AgentId, string)"/>.</summary>
        public void SetLabel(TargetId target, string label)
        {
            byte[] utf8 = LabelBytes(label);
            WorldHandle h = H;
            Result r;
            fixed (byte* p = utf8) r = NativeMethods.argus_target_set_label(h, target, p);
            LabelSet(r, utf8, label);
        }

        /// <summary>Names an occluder, as <see cref="SetLabel(AgentId, string)"/>.</summary>
        public void SetLabel(OccluderId occluder, string label)
        {
            byte[] utf8 = LabelBytes(label);
            WorldHandle h = H;
            Result r;
            fixed (byte* p = utf8) r = NativeMethods.argus_occluder_set_label(h, occluder, p);
            LabelSet(r, utf8, label);
        }

        /// <summary>An agent's label, "" when it has none. ArgusException InvalidId for an agent not in this
        /// world.</summary>
        public string GetLabel(AgentId agent)
        {
            byte* buffer = stackalloc byte[LabelCapacity];
            uint length;
            Check(NativeMethods.argus_agent_get_label(H, agent, buffer, (uint)LabelCapacity, &length));
            return LabelString(buffer, length);
        }

        /// <summary>A target's label, as <see cref="GetLabel(AgentId)"/>.</summary>
        public string GetLabel(TargetId target)
        {
            byte* buffer = stackalloc byte[LabelCapacity];
            uint length;
            Check(NativeMethods.argus_target_get_label(H, target, buffer, (uint)LabelCapacity, &length));
            return LabelString(buffer, length);
        }

        /// <summary>An occluder's label, as <see cref="GetLabel(AgentId)"/>.</summary>
        public string GetLabel(OccluderId occluder)
        {
            byte* buffer = stackalloc byte[LabelCapacity];
            uint length;
            Check(NativeMethods.argus_occluder_get_label(H, occluder, buffer, (uint)LabelCapacity, &length));
            return LabelString(buffer, length);
        }

        /// <summary>A label as NUL-terminated UTF-8; null stays null (the library then removes the label). A NUL
        /// inside is refused here: the library would read a shorter label.</summary>
        static byte[] LabelBytes(string label)
        {
            if (label == null) return null;
            if (label.IndexOf('\0') >= 0) throw new ArgumentException("a label cannot hold a NUL character", "label");
            var bytes = new byte[Encoding.UTF8.GetByteCount(label) + 1];
            Encoding.UTF8.GetBytes(label, 0, label.Length, bytes, 0);
            return bytes;
        }

        /// <summary>Check for a set label: a refused length says how long this one was (the library reads no
        /// further than one byte past the longest label, so only the caller knows).</summary>
        void LabelSet(Result r, byte[] utf8, string label)
        {
            if (r == Result.Ok) return;
            int bytes = utf8 == null ? 0 : utf8.Length - 1;
            string more = r == Result.InvalidArgument && bytes > (int)Constants.MAX_LABEL_BYTES
                ? " (this one is " + bytes + " bytes of UTF-8, from " + label.Length + " UTF-16 characters; nothing changed)"
                : null;
            Fail(r, this, more);
        }

        static string LabelString(byte* buffer, uint length)
        {
            return length == 0 ? "" : Encoding.UTF8.GetString(buffer, (int)length);
        }
    }
}
