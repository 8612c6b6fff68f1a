#if !UNITY_5_3_OR_NEWER
using System;

namespace AOT
{
    /// <summary>Marks a static method that native code calls back. Unity's IL2CPP (which needs it to
    /// generate the reverse thunk) defines this attribute itself; outside Unity it is only a marker.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        /// <summary>The delegate type native code calls the method through.</summary>
        public MonoPInvokeCallbackAttribute(Type delegateType)
        {
            DelegateType = delegateType;
        }

        /// <summary>The delegate type given to the constructor.</summary>
        public Type DelegateType { get; private set; }
    }
}
#endif
