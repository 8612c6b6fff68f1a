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
        static List<string> Compile(string usings)
        {
            string dir = Path.Combine(Path.GetTempPath(), "argus-names-" + Process.GetCurrentProcess().Id);
            Directory.CreateDirectory(dir);
            string src = Path.Combine(dir, "UserScript.cs");
            File.WriteAllText(src, usings + Body);
            string package = typeof(PerceptionWorld).Assembly.Location;
            string engine = typeof(UnityEngine.Object).Assembly.Location;
            var psi = new ProcessStartInfo("mcs", "-langversion:7 -target:library -nowarn:169,414 -out:\"" + Path.Combine(dir, "UserScript.dll")
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
        public void UsingArgus_TooCollides_UntilTheBindingsRenameTheirTypes()
        {
            // Known and documented (unity/README.md): the low-level bindings (bindings/csharp/Argus,
            // namespace Argus) define Ray, Plane, Percept and AwarenessStage. When they are renamed
            // there, this list shrinks: update it, down to none.
            CollectionAssert.AreEqual(new[] { "AwarenessStage", "Percept", "Plane", "Ray" },
                Compile("using UnityEngine;\nusing Argus;\nusing Argus.Perception;\n"));
        }
    }
}
