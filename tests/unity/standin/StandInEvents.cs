// STAND-IN, NOT UNITY. UnityEngine.Events as Unity's reference source declares them
// (Runtime/Export/UnityEvent/UnityEvent/UnityEvent_0.cs ... _4.cs): [Serializable] UnityEvent classes
// with AddListener, RemoveListener, RemoveAllListeners, Invoke, GetPersistentEventCount. Persistent
// (Inspector-wired) listeners are stood in for by StandInAddPersistent. Bodies are this file's own;
// Invoke allocates nothing.
using System;
using System.Collections.Generic;

namespace UnityEngine.Events
{
    public delegate void UnityAction();
    public delegate void UnityAction<T0>(T0 arg0);
    public delegate void UnityAction<T0, T1>(T0 arg0, T1 arg1);
    public delegate void UnityAction<T0, T1, T2>(T0 arg0, T1 arg1, T2 arg2);
    public delegate void UnityAction<T0, T1, T2, T3>(T0 arg0, T1 arg1, T2 arg2, T3 arg3);

    [Serializable]
    public abstract class UnityEventBase
    {
        internal int m_Persistent;
        public int GetPersistentEventCount() { return m_Persistent; }
    }

    // The listeners of one event: a list, copied only when changed, so Invoke allocates nothing.
    public abstract class StandInEvent<TAction> : UnityEventBase where TAction : class
    {
        internal readonly List<TAction> m_Calls = new List<TAction>();
        public void AddListener(TAction call) { m_Calls.Add(call); }
        public void RemoveListener(TAction call) { m_Calls.Remove(call); }
        public void RemoveAllListeners() { m_Calls.Clear(); }
        /// <summary>Not Unity: a listener wired in the Inspector (counted by GetPersistentEventCount).</summary>
        public void StandInAddPersistent(TAction call) { m_Persistent++; m_Calls.Add(call); }
    }

    [Serializable]
    public class UnityEvent : StandInEvent<UnityAction>
    {
        public void Invoke() { for (int i = 0; i < m_Calls.Count; i++) m_Calls[i](); }
    }

    [Serializable]
    public class UnityEvent<T0> : StandInEvent<UnityAction<T0>>
    {
        public void Invoke(T0 arg0) { for (int i = 0; i < m_Calls.Count; i++) m_Calls[i](arg0); }
    }

    [Serializable]
    public class UnityEvent<T0, T1> : StandInEvent<UnityAction<T0, T1>>
    {
        public void Invoke(T0 arg0, T1 arg1) { for (int i = 0; i < m_Calls.Count; i++) m_Calls[i](arg0, arg1); }
    }

    [Serializable]
    public class UnityEvent<T0, T1, T2> : StandInEvent<UnityAction<T0, T1, T2>>
    {
        public void Invoke(T0 arg0, T1 arg1, T2 arg2) { for (int i = 0; i < m_Calls.Count; i++) m_Calls[i](arg0, arg1, arg2); }
    }

    [Serializable]
    public class UnityEvent<T0, T1, T2, T3> : StandInEvent<UnityAction<T0, T1, T2, T3>>
    {
        public void Invoke(T0 arg0, T1 arg1, T2 arg2, T3 arg3) { for (int i = 0; i < m_Calls.Count; i++) m_Calls[i](arg0, arg1, arg2, arg3); }
    }
}
