using UnityEditor;
using UnityEngine;

namespace Argus.Perception.Editor
{
    /// <summary>The PerceptionWorld inspector: its fields, plus what the native world holds in Play mode.</summary>
    [CustomEditor(typeof(PerceptionWorld))]
    public sealed class PerceptionWorldEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            DrawDefaultInspector();
            var world = (PerceptionWorld)target;
            if (!world.IsCreated)
            {
                EditorGUILayout.HelpBox("The native world exists while this component is enabled in Play mode.", MessageType.Info);
                return;
            }
            EditorGUILayout.LabelField("Library", Library.Version);
            WorldCounts c = world.Native.Counts;
            EditorGUILayout.LabelField("Agents", c.Agents.ToString());
            EditorGUILayout.LabelField("Targets", c.Targets.ToString());
            EditorGUILayout.LabelField("Occluders", c.Occluders.ToString());
            EditorGUILayout.LabelField("Steps", world.StepCount.ToString());
        }
    }

    /// <summary>The EnemyBrain inspector shows the live state, timer and move target in Play mode, and with
    /// belief search the belief's peak, how many guards share it, and the search point.</summary>
    [CustomEditor(typeof(EnemyBrain))]
    public sealed class EnemyBrainEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            DrawDefaultInspector();
            var brain = (EnemyBrain)target;
            if (!EditorApplication.isPlaying) return;
            EditorGUILayout.LabelField("Timer", brain.StateTimer.ToString("F2"));
            EditorGUILayout.LabelField("Move target", brain.HasMoveTarget ? brain.MoveTarget.ToString() : "none");
            if (brain.search != EnemyBrain.SearchMode.Belief) return;
            BeliefInfo info;
            if (!brain.TryGetBelief(out info))
            {
                EditorGUILayout.LabelField("Belief", "none (not chasing or searching, or no walk graph)");
                return;
            }
            EditorGUILayout.LabelField("Belief", "peak " + info.Peak.ToString("F4") + " over " + info.NodeCount + " nodes, "
                + info.OwnerCount + (info.OwnerCount == 1 ? " guard" : " guards"));
            EditorGUILayout.LabelField("Search point", info.HasSearchPoint ? brain.SearchPoint.ToString() : "none yet");
        }
    }
}
