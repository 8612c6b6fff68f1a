// STAND-IN, NOT UNITY. Test-only replacement for UnityEngine's object model (Object, GameObject,
// Component, Transform, Behaviour, MonoBehaviour, attributes, Time, Debug, LayerMask), functional
// enough for the package's components to run on Mono: AddComponent calls Awake and OnEnable,
// StandIn.Player.Frame(dt) runs one physics step (colliders take their Transforms' poses), then Start,
// Update and LateUpdate by execution order, Destroy calls OnDisable and
// OnDestroy. Names and signatures follow Unity's public API; bodies are this file's own.
using System;
using System.Collections.Generic;
using System.Reflection;

namespace UnityEngine
{
    public class Object
    {
        static int s_NextId = 1;
        readonly int m_Id = s_NextId++;
        internal bool m_Destroyed;

        public string name { get; set; }
#if UNITY_6000_4_OR_NEWER
        [Obsolete("GetInstanceID is deprecated. Use GetEntityId instead. This will be removed in a future version.")]
#endif
        public int GetInstanceID() { return m_Id; }

        // Unity's "fake null": a destroyed object compares equal to null.
        public static bool operator ==(Object a, Object b)
        {
            bool aNull = ReferenceEquals(a, null) || a.m_Destroyed;
            bool bNull = ReferenceEquals(b, null) || b.m_Destroyed;
            if (aNull || bNull) return aNull && bNull;
            return ReferenceEquals(a, b);
        }
        public static bool operator !=(Object a, Object b) { return !(a == b); }
        public static implicit operator bool(Object o) { return o != null; }
        public override bool Equals(object o) { return this == (o as Object); }
        public override int GetHashCode() { return m_Id; }

        public static void Destroy(Object obj) { StandIn.Player.DestroyNow(obj); }
        public static void DestroyImmediate(Object obj) { StandIn.Player.DestroyNow(obj); }

        public static int StandInFindObjectsOfTypeCalls;

        // Obsolete as in Unity's reference source (Runtime/Export/Scripting/UnityEngineObject.bindings.cs):
        // FindObjectsOfType from 2023.1; every FindObjectsSortMode overload (and the enum) from 6000.4,
        // which adds FindObjectsByType<T>() and FindObjectsByType<T>(FindObjectsInactive).
#if UNITY_6000_4_OR_NEWER
        public static T[] FindObjectsByType<T>() where T : Object { return Find<T>(); }
        public static T[] FindObjectsByType<T>(FindObjectsInactive findObjectsInactive) where T : Object
        {
            if (findObjectsInactive != FindObjectsInactive.Exclude) throw new NotImplementedException("stand-in: active objects only");
            return Find<T>();
        }
        [Obsolete("FindObjectsByType with FindObjectsSortMode parameter has been deprecated. Use FindObjectsByType<T>() or FindObjectsByType<T>(FindObjectsInactive) instead. InstanceID will be replaced in the future with EntityId and previous sort order cannot be maintained.", false)]
        public static T[] FindObjectsByType<T>(FindObjectsSortMode sortMode) where T : Object { return Find<T>(); }
#elif UNITY_2022_2_OR_NEWER
        // Unity 2021.3.18+ and 2022.2.5+ (the 2022.2 variant stands for those).
        public static T[] FindObjectsByType<T>(FindObjectsSortMode sortMode) where T : Object { return Find<T>(); }
#endif

#if UNITY_2023_1_OR_NEWER
        [Obsolete("Object.FindObjectsOfType has been deprecated. Use Object.FindObjectsByType instead which lets you decide whether you need the results sorted or not.  FindObjectsOfType sorts the results by InstanceID but if you do not need this using FindObjectSortMode.None is considerably faster.", false)]
#endif
        public static T[] FindObjectsOfType<T>() where T : Object
        {
            StandInFindObjectsOfTypeCalls++;
            return Find<T>();
        }

        static T[] Find<T>() where T : Object
        {
            var found = new List<T>();
            foreach (var go in StandIn.Player.GameObjects)
            {
                if (!go.activeInHierarchy) continue;
                foreach (var c in go.Components)
                {
                    var t = c as T;
                    if (t != null) found.Add(t);
                }
            }
            return found.ToArray();
        }

        public static T FindObjectOfType<T>() where T : Object
        {
            var all = Find<T>();
            return all.Length > 0 ? all[0] : null;
        }
    }

#if UNITY_6000_4_OR_NEWER
    [Obsolete("FindObjectsSortMode has been deprecated. Use the FindObjectsByType overloads that do not take a FindObjectsSortMode parameter.", false)]
#endif
#if UNITY_2022_2_OR_NEWER
    public enum FindObjectsSortMode { None = 0, InstanceID = 1 }
    public enum FindObjectsInactive { Exclude = 0, Include = 1 }
#endif

    public class Component : Object
    {
        internal GameObject m_GameObject;
        public GameObject gameObject { get { return m_GameObject; } }
        public Transform transform { get { return m_GameObject.transform; } }
        public T GetComponent<T>() where T : class { return m_GameObject.GetComponent<T>(); }
        public T GetComponentInChildren<T>() where T : class { return m_GameObject.GetComponentInChildren<T>(); }
        public Component GetComponent(Type type) { return m_GameObject.GetComponent(type); }
    }

    public class Transform : Component
    {
        // As in Unity: the local pose is stored, the world pose is composed through the parents.
        Vector3 m_LocalPosition;
        Quaternion m_LocalRotation = Quaternion.identity;
        Vector3 m_LocalScale = Vector3.one;
        Transform m_Parent;

        public Vector3 localPosition { get { return m_LocalPosition; } set { m_LocalPosition = value; } }
        public Quaternion localRotation { get { return m_LocalRotation; } set { m_LocalRotation = value; } }
        public Vector3 localScale { get { return m_LocalScale; } set { m_LocalScale = value; } }
        public Vector3 position
        {
            get { return m_Parent == null ? m_LocalPosition : m_Parent.TransformPoint(m_LocalPosition); }
            set { m_LocalPosition = m_Parent == null ? value : m_Parent.InverseTransformPoint(value); }
        }
        public Quaternion rotation
        {
            get { return m_Parent == null ? m_LocalRotation : m_Parent.rotation * m_LocalRotation; }
            set { m_LocalRotation = m_Parent == null ? value : Quaternion.Inverse(m_Parent.rotation) * value; }
        }
        // Unity's lossyScale is approximate under rotated, non-uniformly scaled parents; so is this.
        public Vector3 lossyScale { get { return m_Parent == null ? m_LocalScale : Vector3.Scale(m_Parent.lossyScale, m_LocalScale); } }
        public Vector3 forward
        {
            get { return rotation * Vector3.forward; }
            set { rotation = Quaternion.LookRotation(value); }
        }
        public Vector3 up { get { return rotation * Vector3.up; } }
        public Vector3 right { get { return rotation * Vector3.right; } }
        public Transform parent { get { return m_Parent; } set { SetParent(value, true); } }
        public Transform root { get { var t = this; while (t.m_Parent != null) t = t.m_Parent; return t; } }
        public void SetParent(Transform p) { SetParent(p, true); }
        public void SetParent(Transform p, bool worldPositionStays)
        {
            Vector3 wp = position;
            Quaternion wr = rotation;
            m_Parent = p;
            if (worldPositionStays)
            {
                position = wp;
                rotation = wr;
            }
        }
        public bool IsChildOf(Transform parent)
        {
            for (var t = this; t != null; t = t.m_Parent)
                if (t == parent) return true;
            return false;
        }
        public Vector3 TransformPoint(Vector3 p) { return position + rotation * Vector3.Scale(lossyScale, p); }
        public Vector3 InverseTransformPoint(Vector3 p)
        {
            Vector3 local = Quaternion.Inverse(rotation) * (p - position);
            Vector3 s = lossyScale;
            return new Vector3(local.x / s.x, local.y / s.y, local.z / s.z);
        }
        public Vector3 TransformDirection(Vector3 d) { return rotation * d; }
        public void LookAt(Vector3 worldPosition) { forward = worldPosition - position; }
        public void SetPositionAndRotation(Vector3 p, Quaternion r) { position = p; rotation = r; }
    }

    public sealed class GameObject : Object
    {
        internal readonly List<Component> Components = new List<Component>();
        readonly Transform m_Transform;
        bool m_Active = true;

        public GameObject() : this("GameObject") { }

        public GameObject(string name)
        {
            this.name = name;
            m_Transform = new Transform();
            m_Transform.m_GameObject = this;
            m_Transform.name = name;
            Components.Add(m_Transform);
            StandIn.Player.GameObjects.Add(this);
        }

        /// <summary>As in Unity: a GameObject named after the primitive with a MeshFilter, a MeshRenderer
        /// and the primitive's collider (Cube: Box, Sphere: Sphere, Capsule and Cylinder: Capsule,
        /// Plane and Quad: Mesh).</summary>
        public static GameObject CreatePrimitive(PrimitiveType type)
        {
            var go = new GameObject(type.ToString());
            go.AddComponent<MeshFilter>();
            go.AddComponent<MeshRenderer>().sharedMaterial = new Material(Shader.Find("Standard"));
            switch (type)
            {
                case PrimitiveType.Cube: go.AddComponent<BoxCollider>(); break;
                case PrimitiveType.Sphere: go.AddComponent<SphereCollider>(); break;
                case PrimitiveType.Capsule:
                case PrimitiveType.Cylinder: go.AddComponent<CapsuleCollider>(); break;
                default: go.AddComponent<MeshCollider>(); break;
            }
            return go;
        }

        public Transform transform { get { return m_Transform; } }
        public int layer { get; set; }
        public string tag { get; set; }
        public bool activeSelf { get { return m_Active; } }
        public bool activeInHierarchy { get { return m_Active && !m_Destroyed; } }
        public GameObject gameObject { get { return this; } }

        public void SetActive(bool value)
        {
            if (value == m_Active) return;
            m_Active = value;
            // As in PhysX: an activated GameObject's colliders enter the scene at their current pose.
            if (value) Physics.StandInSyncTree(transform);
            foreach (var c in Components.ToArray())
            {
                var b = c as Behaviour;
                if (b == null) continue;
                if (value) StandIn.Player.Activate(b);
                else if (b.enabled) StandIn.Player.Disable(b);
            }
        }

        public T AddComponent<T>() where T : Component, new() { return (T)AddComponent(typeof(T)); }

        public Component AddComponent(Type type)
        {
            if (type.GetCustomAttributes(typeof(DisallowMultipleComponent), true).Length > 0 && GetComponent(type) != null)
                throw new InvalidOperationException("stand-in: " + type.Name + " disallows multiple components");
            foreach (RequireComponent req in type.GetCustomAttributes(typeof(RequireComponent), true))
            {
                foreach (var t in new[] { req.m_Type0, req.m_Type1, req.m_Type2 })
                    if (t != null && GetComponent(t) == null) AddComponent(t);
            }
            var c = (Component)Activator.CreateInstance(type);
            c.m_GameObject = this;
            c.name = name;
            Components.Add(c);
            var col = c as Collider;
            if (col != null) col.StandInSync(); // a new collider enters the physics scene at its current pose
            var b = c as Behaviour;
            if (b != null) StandIn.Player.Added(b);
            return c;
        }

        // As in Unity: this GameObject first, then its active descendants.
        public T GetComponentInChildren<T>() where T : class
        {
            T own = GetComponent<T>();
            if (own != null) return own;
            foreach (var go in StandIn.Player.GameObjects)
            {
                if (go == this || !go.activeInHierarchy || !go.transform.IsChildOf(transform)) continue;
                T t = go.GetComponent<T>();
                if (t != null) return t;
            }
            return null;
        }

        public T GetComponent<T>() where T : class
        {
            foreach (var c in Components)
            {
                if (c.m_Destroyed) continue;
                var t = c as T;
                if (t != null) return t;
            }
            return null;
        }

        public Component GetComponent(Type type)
        {
            foreach (var c in Components)
                if (!c.m_Destroyed && type.IsInstanceOfType(c)) return c;
            return null;
        }

        public T[] GetComponents<T>() where T : class
        {
            var list = new List<T>();
            foreach (var c in Components)
            {
                var t = c as T;
                if (t != null && !c.m_Destroyed) list.Add(t);
            }
            return list.ToArray();
        }
    }

    public class Behaviour : Component
    {
        internal bool m_Enabled = true;
        public bool enabled
        {
            get { return m_Enabled; }
            set
            {
                if (value == m_Enabled) return;
                m_Enabled = value;
                if (gameObject == null || !gameObject.activeInHierarchy) return;
                if (value) StandIn.Player.Enable(this); else StandIn.Player.Disable(this);
            }
        }
        public bool isActiveAndEnabled { get { return m_Enabled && gameObject != null && gameObject.activeInHierarchy && StandIn.Player.IsEnabled(this); } }
    }

    public class MonoBehaviour : Behaviour
    {
    }

    public struct LayerMask
    {
        int m_Mask;
        public int value { get { return m_Mask; } set { m_Mask = value; } }
        public static implicit operator int(LayerMask mask) { return mask.m_Mask; }
        public static implicit operator LayerMask(int intVal) { LayerMask m; m.m_Mask = intVal; return m; }

        // Layer names: the stand-in knows Unity's built-in ones and "Obstacle"=8, "Player"=9.
        static readonly string[] s_Names = { "Default", "TransparentFX", "Ignore Raycast", "", "Water", "UI", "", "", "Obstacle", "Player" };
        public static int NameToLayer(string layerName) { return Array.IndexOf(s_Names, layerName); }
        public static string LayerToName(int layer) { return layer >= 0 && layer < s_Names.Length ? s_Names[layer] : ""; }
        public static int GetMask(params string[] layerNames)
        {
            int m = 0;
            foreach (var n in layerNames) { int l = NameToLayer(n); if (l >= 0) m |= 1 << l; }
            return m;
        }
    }

    public static class Application
    {
        // A folder of this process under the temp directory (Unity: a per-user, per-product folder).
        static string s_PersistentDataPath = System.IO.Path.Combine(System.IO.Path.GetTempPath(),
            "argus-standin-persistent-" + System.Diagnostics.Process.GetCurrentProcess().Id);

        public static string persistentDataPath { get { return s_PersistentDataPath; } }
    }

    public static class Time
    {
        public static float time { get; internal set; }
        public static float deltaTime { get; internal set; }
        public static int frameCount { get; internal set; }
    }

    public static class Debug
    {
        public static readonly List<string> StandInLog = new List<string>();
        public static void Log(object m) { StandInLog.Add("log: " + m); }
        public static void LogWarning(object m) { StandInLog.Add("warning: " + m); }
        public static void LogWarning(object m, Object context) { LogWarning(m); }
        public static void LogError(object m) { StandInLog.Add("error: " + m); }
        public static void LogError(object m, Object context) { LogError(m); }
        public static void LogException(Exception e) { StandInLog.Add("exception: " + e); }
        public static void LogException(Exception e, Object context) { LogException(e); }
    }

    public enum LogType { Error = 0, Assert = 1, Warning = 2, Log = 3, Exception = 4 }

    [AttributeUsage(AttributeTargets.Field)] public sealed class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public sealed class HideInInspector : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public sealed class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true)] public sealed class HeaderAttribute : Attribute { public HeaderAttribute(string header) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class RangeAttribute : Attribute { public readonly float min, max; public RangeAttribute(float min, float max) { this.min = min; this.max = max; } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class MinAttribute : Attribute { public readonly float min; public MinAttribute(float min) { this.min = min; } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class DisallowMultipleComponent : Attribute { }
    [AttributeUsage(AttributeTargets.Class)] public sealed class ExecuteAlways : Attribute { }
    [AttributeUsage(AttributeTargets.Class)] public sealed class HelpURLAttribute : Attribute { public HelpURLAttribute(string url) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class AddComponentMenu : Attribute { public AddComponentMenu(string menuName) { } }
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class DefaultExecutionOrder : Attribute
    {
        public DefaultExecutionOrder(int order) { this.order = order; }
        public int order { get; private set; }
    }
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
    public sealed class RequireComponent : Attribute
    {
        internal Type m_Type0, m_Type1, m_Type2;
        public RequireComponent(Type requiredComponent) { m_Type0 = requiredComponent; }
        public RequireComponent(Type requiredComponent, Type requiredComponent2) { m_Type0 = requiredComponent; m_Type1 = requiredComponent2; }
    }
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class RuntimeInitializeOnLoadMethodAttribute : Attribute
    {
        public RuntimeInitializeOnLoadMethodAttribute() { }
        public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType loadType) { }
    }
    public enum RuntimeInitializeLoadType { AfterSceneLoad = 0, BeforeSceneLoad = 1, AfterAssembliesLoaded = 2, BeforeSplashScreen = 3, SubsystemRegistration = 4 }
}

namespace UnityEngine.TestTools
{
    // Stand-in: the Unity Test Framework fails a test on an unexpected logged error; here the
    // expectation is only recorded (tests/unity checks Debug.StandInLog where it matters).
    public static class LogAssert
    {
        public static readonly System.Collections.Generic.List<string> StandInExpected = new System.Collections.Generic.List<string>();
        public static void Expect(LogType type, System.Text.RegularExpressions.Regex message) { StandInExpected.Add(type + ": " + message); }
        public static void Expect(LogType type, string message) { StandInExpected.Add(type + ": " + message); }
    }
}

namespace AOT
{
    // Unity ships this attribute in UnityEngine.CoreModule; IL2CPP needs it on reverse P/Invoke targets.
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute { public MonoPInvokeCallbackAttribute(Type type) { } }
}

namespace StandIn
{
    using UnityEngine;

    // The stand-in's player loop. Not Unity: a test calls Frame(dt) to run one frame.
    public static class Player
    {
        sealed class Entry
        {
            public Behaviour Behaviour;
            public int Order;
            public int Sequence;
            public bool Enabled, Started, Awoken;
            public Action Awake, OnEnable, Start, Update, LateUpdate, OnDisable, OnDestroy, OnApplicationQuit;
        }

        internal static readonly List<GameObject> GameObjects = new List<GameObject>();
        static readonly List<Entry> s_Entries = new List<Entry>();
        static readonly Dictionary<Behaviour, Entry> s_ByBehaviour = new Dictionary<Behaviour, Entry>();
        static int s_Sequence;
        static readonly Dictionary<Type, List<Action<Behaviour>>> s_Tickers = new Dictionary<Type, List<Action<Behaviour>>>();

        static Action Bind(Behaviour b, string method)
        {
            for (var t = b.GetType(); t != null && t != typeof(MonoBehaviour); t = t.BaseType)
            {
                var m = t.GetMethod(method, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly, null, Type.EmptyTypes, null);
                if (m != null && m.ReturnType == typeof(void)) return (Action)Delegate.CreateDelegate(typeof(Action), b, m);
            }
            return null;
        }

        internal static void Added(Behaviour b)
        {
            var attr = (DefaultExecutionOrder[])b.GetType().GetCustomAttributes(typeof(DefaultExecutionOrder), true);
            var e = new Entry
            {
                Behaviour = b, Order = attr.Length > 0 ? attr[0].order : 0, Sequence = s_Sequence++,
                Awake = Bind(b, "Awake"), OnEnable = Bind(b, "OnEnable"), Start = Bind(b, "Start"),
                Update = Bind(b, "Update"), LateUpdate = Bind(b, "LateUpdate"), OnDisable = Bind(b, "OnDisable"),
                OnDestroy = Bind(b, "OnDestroy"), OnApplicationQuit = Bind(b, "OnApplicationQuit"),
            };
            s_ByBehaviour[b] = e;
            int i = 0;
            while (i < s_Entries.Count && (s_Entries[i].Order < e.Order || (s_Entries[i].Order == e.Order && s_Entries[i].Sequence < e.Sequence))) i++;
            s_Entries.Insert(i, e);
            if (!b.gameObject.activeInHierarchy) return;
            Activate(b);
        }

        // Unity: a component's Awake runs the first time its GameObject is active, then OnEnable.
        internal static void Activate(Behaviour b)
        {
            Entry e;
            if (!s_ByBehaviour.TryGetValue(b, out e)) return;
            if (!e.Awoken)
            {
                e.Awoken = true;
                if (e.Awake != null) e.Awake();
            }
            if (b.enabled) Enable(b);
        }

        internal static bool IsEnabled(Behaviour b) { Entry e; return s_ByBehaviour.TryGetValue(b, out e) && e.Enabled; }

        internal static void Enable(Behaviour b)
        {
            Entry e;
            if (!s_ByBehaviour.TryGetValue(b, out e) || e.Enabled) return;
            e.Enabled = true;
            if (e.OnEnable != null) e.OnEnable();
        }

        internal static void Disable(Behaviour b)
        {
            Entry e;
            if (!s_ByBehaviour.TryGetValue(b, out e) || !e.Enabled) return;
            e.Enabled = false;
            if (e.OnDisable != null) e.OnDisable();
        }

        internal static void DestroyNow(Object obj)
        {
            if (obj == null) return;
            var go = obj as GameObject;
            if (go != null)
            {
                foreach (var c in go.Components.ToArray()) if (!(c is Transform)) DestroyNow(c);
                go.m_Destroyed = true;
                GameObjects.Remove(go);
                return;
            }
            var b = obj as Behaviour;
            if (b != null)
            {
                Disable(b);
                Entry e;
                if (s_ByBehaviour.TryGetValue(b, out e))
                {
                    if (e.OnDestroy != null) e.OnDestroy();
                    s_ByBehaviour.Remove(b);
                    s_Entries.Remove(e);
                }
            }
            obj.m_Destroyed = true;
        }

        // The editor after an inspector edit of a component (Unity calls OnValidate then, in the
        // editor only; also on load). Not Unity API: a test calls it where a user would edit a field.
        public static void InspectorEdit(Behaviour b)
        {
            for (var t = b.GetType(); t != null && t != typeof(MonoBehaviour); t = t.BaseType)
            {
                var m = t.GetMethod("OnValidate", BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly, null, Type.EmptyTypes, null);
                if (m != null) { m.Invoke(b, null); return; }
            }
        }

        // Engine-side behaviours (NavMeshAgent) advance here, before scripts' Update.
        public static void RegisterTicker<T>(Action<Behaviour> tick) where T : Behaviour
        {
            List<Action<Behaviour>> list;
            if (!s_Tickers.TryGetValue(typeof(T), out list)) s_Tickers[typeof(T)] = list = new List<Action<Behaviour>>();
            list.Add(tick);
        }

        // One frame: Start for newcomers, Update, engine ticks, LateUpdate. Iterates by index
        // so that a frame allocates nothing of its own.
        public static void Frame(float dt)
        {
            Time.deltaTime = dt;
            Time.time += dt;
            Time.frameCount++;
            // One physics step per frame, before scripts' Update (Unity's FixedUpdate loop then its
            // simulation, which first applies Transform changes to the colliders): what scripts move in
            // Update or LateUpdate reaches physics queries at the next frame's step, or at SyncTransforms.
            Physics.StandInSimulate();
            for (int i = 0; i < s_Entries.Count; i++)
            {
                var e = s_Entries[i];
                if (e.Enabled && !e.Started) { e.Started = true; if (e.Start != null) e.Start(); }
            }
            for (int i = 0; i < s_Entries.Count; i++)
            {
                var e = s_Entries[i];
                if (e.Enabled && e.Update != null) e.Update();
            }
            for (int i = 0; i < s_Entries.Count; i++)
            {
                var e = s_Entries[i];
                if (!e.Enabled) continue;
                List<Action<Behaviour>> ticks;
                if (s_Tickers.TryGetValue(e.Behaviour.GetType(), out ticks))
                    for (int k = 0; k < ticks.Count; k++) ticks[k](e.Behaviour);
            }
            for (int i = 0; i < s_Entries.Count; i++)
            {
                var e = s_Entries[i];
                if (e.Enabled && e.LateUpdate != null) e.LateUpdate();
            }
            Keyboard.EndFrame();
        }

        // Not Unity: every component of type T on an active GameObject, for tests (no obsolete API to pick per version).
        public static T[] FindAll<T>() where T : class
        {
            var found = new List<T>();
            foreach (var go in GameObjects)
            {
                if (!go.activeInHierarchy) continue;
                foreach (var c in go.Components) { var t = c as T; if (t != null) found.Add(t); }
            }
            return found.ToArray();
        }

        public static void Run(float seconds, float dt)
        {
            int n = (int)Math.Round(seconds / dt);
            for (int i = 0; i < n; i++) Frame(dt);
        }

        // Quitting the player: OnApplicationQuit on every behaviour of an active GameObject, then
        // every object destroyed (OnDisable, OnDestroy), as Unity does when the application quits.
        public static void Quit()
        {
            foreach (var e in s_Entries.ToArray())
                if (e.OnApplicationQuit != null && e.Behaviour.gameObject.activeInHierarchy) e.OnApplicationQuit();
            foreach (var go in GameObjects.ToArray()) DestroyNow(go);
        }

        // Destroys every object and resets the clock: one scene per test.
        public static void Reset()
        {
            foreach (var go in GameObjects.ToArray()) DestroyNow(go);
            GameObjects.Clear();
            s_Entries.Clear();
            s_ByBehaviour.Clear();
            Time.time = 0f;
            Time.deltaTime = 0f;
            Time.frameCount = 0;
            Debug.StandInLog.Clear();
            Physics.queriesHitTriggers = true;
            Physics.queriesHitBackfaces = false;
            Physics.StandInResetSync();
            Gizmos.StandInClear();
            Keyboard.Reset();
        }
    }
}
