using System;

namespace Argus
{
    /// <summary>A native call failed: <see cref="Code"/> is its result, the message the world's last error
    /// (e.g. <see cref="Result.WriteFailed"/>: a recording's file could not be created or written, the
    /// message naming the file and the system's reason).</summary>
    public sealed class ArgusException : Exception
    {
        /// <summary>The native result code (never <see cref="Result.Ok"/>).</summary>
        public readonly Result Code;

        /// <summary>For a refused batch (SetAgentPoses, SetTargetPoses): the index of the first entry at
        /// fault, also named in the message; -1 otherwise.</summary>
        public readonly int Index;

        internal ArgusException(Result code, string message) : this(code, message, -1)
        {
        }

        internal ArgusException(Result code, string message, int index) : base(message)
        {
            Code = code;
            Index = index;
        }

        /// <summary>With the managed exception behind the code (WriteFailed when a Stream given to
        /// World.SaveFlightRecording threw): <see cref="Exception.InnerException"/>.</summary>
        internal ArgusException(Result code, string message, int index, Exception inner) : base(message, inner)
        {
            Code = code;
            Index = index;
        }
    }

    /// <summary>The engine's ray callback threw while a native call was asking it for rays. The call
    /// ended there (natively ARGUS_RESULT_CALLBACK_FAILED) and changed nothing: a failed Step did not
    /// happen. The callback's exception is inner.</summary>
    public sealed class RayCallbackException : Exception
    {
        internal RayCallbackException(Exception inner)
            : base("the ray callback threw: " + inner.Message, inner)
        {
        }
    }
}
