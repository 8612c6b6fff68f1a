// What `using` lines do to a user's script: the package's names must not collide with Unity's.
// Compiles small scripts with mcs against the built package and the stand-in.
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text.RegularExpressions;
using NUnit.Framework;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class NamesTests
    {
        const string Body = @"
public class UserScript : MonoBehaviour
{
    Ray ray; Plane plane; Percept percept; AwarenessStage stage; AIState state;
    void Use() { ray = new Ray(Vector3.zero, Vector3.forward); plane = new Plane(Vector3.up, 0f); percept.position = ray.origin; stage = AwarenessStage.Alert; state = AIState.Idle; }
}
";

        // Compiles a script; returns the names mcs calls ambiguous (CS0104), or null when it compiled.
        static List<string> Compile(string usings, string more = "")
        {
            string dir = Path.Combine(Path.GetTempPath(), "argus-names-" + Process.GetCurrentProcess().Id);
            Directory.CreateDirectory(dir);
            string src = Path.Combine(dir, "UserScript.cs");
            File.WriteAllText(src, usings + Body + more);
            string package = typeof(PerceptionWorld).Assembly.Location;
            string engine = typeof(UnityEngine.Object).Assembly.Location;
            var psi = new ProcessStartInfo("mcs", "-langversion:7 -target:library -nowarn:169,414,649 -out:\"" + Path.Combine(dir, "UserScript.dll")
                + "\" -r:\"" + package + "\" -r:\"" + engine + "\" \"" + src + "\"")
            {
                UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
            };
            using (var p = Process.Start(psi))
            {
                string output = p.StandardOutput.ReadToEnd() + p.StandardError.ReadToEnd();
                p.WaitForExit();
                Directory.Delete(dir, true);
                if (p.ExitCode == 0) return null;
                var names = new List<string>();
                foreach (Match m in Regex.Matches(output, @"CS0104: `(\w+)' is an ambiguous reference"))
                    if (!names.Contains(m.Groups[1].Value)) names.Add(m.Groups[1].Value);
                if (names.Count == 0) Assert.Fail("the script does not compile:\n" + output);
                names.Sort();
                return names;
            }
        }

        [Test]
        public void UsingArgusPerception_LeavesUnityNamesAlone()
        {
            Assert.IsNull(Compile("using UnityEngine;\nusing Argus.Perception;\n"));
        }

        [Test]
        public void UsingArgusToo_LeavesEveryNameAlone()
        {
            // The low-level bindings (namespace Argus) name their ray, plane, percept and awareness
            // stage EngineRay, MapPlane, PerceptEvent and AwarenessMeterStage (issue #35).
            const string LowLevel = @"
public class UserWorld
{
    World world; EngineRay ray; MapPlane plane = MapPlane.Xz; PerceptEvent percept; AwarenessMeterStage stage = AwarenessMeterStage.Alert;
    void Use() { world = new World(); foreach (PerceptEvent p in world.Percepts) percept = p; ray.MaxDistance = 1f; world.Dispose(); }
}
";
            Assert.IsNull(Compile("using UnityEngine;\nusing Argus;\nusing Argus.Perception;\n", LowLevel));
            Assert.IsNull(Compile("using System;\nusing System.Collections.Generic;\nusing UnityEngine;\nusing Argus;\nusing Argus.Perception;\n", LowLevel));
        }

        // UnityEngine type names a game script commonly uses, beyond those the stand-in defines.
        static readonly string[] s_UnityNames =
        {
            "Vector2", "Vector3", "Vector4", "Vector2Int", "Vector3Int", "Quaternion", "Matrix4x4", "Color", "Color32",
            "Bounds", "BoundsInt", "Rect", "RectInt", "Ray", "Ray2D", "Plane", "Pose", "Physics", "Physics2D",
            "RaycastHit", "RaycastHit2D", "Collider", "Collider2D", "Collision", "Rigidbody", "Rigidbody2D",
            "Transform", "GameObject", "Component", "Behaviour", "MonoBehaviour", "ScriptableObject", "Object",
            "Debug", "Random", "Time", "Mathf", "Input", "Camera", "Light", "Mesh", "Material", "Shader",
            "Texture", "Texture2D", "RenderTexture", "Sprite", "Renderer", "Animator", "Animation", "AudioSource",
            "AudioClip", "AudioListener", "Application", "Screen", "Gizmos", "LayerMask", "Resources", "Coroutine",
            "WaitForSeconds", "Event", "GUI", "GUILayout", "Space", "Terrain", "Grid", "ParticleSystem",
            "LineRenderer", "TrailRenderer", "Canvas", "Font", "Cursor", "Touch", "KeyCode", "ForceMode",
            "CharacterController", "Gradient", "AnimationCurve", "Keyframe", "PlayerPrefs", "SystemInfo", "Handles",
            "Joint", "Avatar", "Motion", "Cubemap", "Flare", "Skybox", "Tilemap", "Hash128", "LOD", "Cloth",
        };

        [Test]
        public void NoPublicTypeOfTheBindings_SharesANameWithUnityOrThePackage()
        {
            var taken = new HashSet<string>(s_UnityNames);
            foreach (var t in typeof(UnityEngine.Object).Assembly.GetExportedTypes())
                if (t.Namespace == "UnityEngine" && !t.IsNested) taken.Add(t.Name);
            foreach (var t in typeof(PerceptionWorld).Assembly.GetExportedTypes())
                if (t.Namespace == "Argus.Perception" && !t.IsNested) taken.Add(t.Name);
            var clashes = new List<string>();
            foreach (var t in typeof(PerceptionWorld).Assembly.GetExportedTypes())
                if (t.Namespace == "Argus" && !t.IsNested && taken.Contains(t.Name)) clashes.Add(t.Name);
            clashes.Sort();
            CollectionAssert.IsEmpty(clashes, "Argus types named like a UnityEngine or Argus.Perception type");
        }
    }
}
