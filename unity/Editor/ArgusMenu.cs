using UnityEditor;
using UnityEngine;

namespace Argus.Perception.Editor
{
    /// <summary>GameObject ▸ Argus menu: the pieces of the two-minute setup.</summary>
    public static class ArgusMenu
    {
        [MenuItem("GameObject/Argus/Perception World", false, 10)]
        public static void CreateWorld() { Create("Perception World", typeof(PerceptionWorld)); }

        [MenuItem("GameObject/Argus/Guard", false, 11)]
        public static void CreateGuard()
        {
            Create("Guard", typeof(FieldOfViewSensor), typeof(HearingSensor), typeof(PerceptionSystem),
                typeof(PerceptionMemory), typeof(EnemyBrain));
        }

        /// <summary>A new GameObject with these components, selected, undoable.</summary>
        public static GameObject Create(string name, params System.Type[] components)
        {
            var go = new GameObject(name);
            foreach (var c in components) go.AddComponent(c);
            Undo.RegisterCreatedObjectUndo(go, "Create " + name);
            Selection.activeGameObject = go;
            return go;
        }
    }
}
