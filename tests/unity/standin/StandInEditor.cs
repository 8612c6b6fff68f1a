// STAND-IN, NOT UNITY. Test-only replacement for the few UnityEditor types the package's Editor/
// code and its UNITY_EDITOR branches use. Names and signatures follow Unity's public API.
using System;
using System.Collections.Generic;

namespace UnityEditor
{
    public static class AssemblyReloadEvents
    {
        public delegate void AssemblyReloadCallback();
        public static event AssemblyReloadCallback beforeAssemblyReload;
        public static event AssemblyReloadCallback afterAssemblyReload;

        // Stand-in only: what the editor does before it unloads the scripting domain.
        public static void StandInRaiseBeforeReload()
        {
            var handler = beforeAssemblyReload;
            if (handler != null) handler();
        }
        public static void StandInRaiseAfterReload()
        {
            var handler = afterAssemblyReload;
            if (handler != null) handler();
        }
    }

    public static class EditorApplication
    {
        public static bool isPlaying { get; set; }
    }

    public enum MessageType { None = 0, Info = 1, Warning = 2, Error = 3 }

    public static class EditorGUILayout
    {
        public static readonly List<string> StandInLabels = new List<string>();
        public static void LabelField(string label, string label2) { StandInLabels.Add(label + ": " + label2); }
        public static void HelpBox(string message, MessageType type) { StandInLabels.Add("help: " + message); }
    }

    public class Editor : UnityEngine.Object
    {
        public UnityEngine.Object target { get; set; }
        public bool DrawDefaultInspector() { return true; }
        public virtual void OnInspectorGUI() { }
    }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class CustomEditor : Attribute { public CustomEditor(Type inspectedType) { } }

    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MenuItem : Attribute
    {
        public MenuItem(string itemName) { }
        public MenuItem(string itemName, bool isValidateFunction, int priority) { }
    }

    public static class Undo
    {
        public static void RegisterCreatedObjectUndo(UnityEngine.Object objectToUndo, string name) { }
    }

    public static class Selection
    {
        public static UnityEngine.GameObject activeGameObject { get; set; }
    }
}
