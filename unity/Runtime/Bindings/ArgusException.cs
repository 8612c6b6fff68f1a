using System;

namespace Argus
{
    /// <summary>A native call failed: <see cref="Code"/> is its result, the message the world's last error.</summary>
    public sealed class ArgusException : Exception
    {
        /// <summary>The native result code (never <see cref="Result.Ok"/>).</summary>
        public readonly Result Code;

        internal ArgusException(Result code, string message) : base(message)
        {
            Code = code;
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
