using System.Collections.Generic;
using System.IO;
using System.Linq;
using NUnit.Framework;

namespace Argus.Tests.Corpus
{
    /// <summary>The conformance corpus (tests/scenarios/*.json) through C#: one test per file.</summary>
    [TestFixture]
    public class CorpusTests
    {
        /// <summary>Every scenario file; a missing corpus yields one case that fails loudly.</summary>
        public static IEnumerable<TestCaseData> Files()
        {
            string dir = ScenarioRunner.Directory;
            string[] files = System.IO.Directory.Exists(dir) ? System.IO.Directory.GetFiles(dir, "*.json") : new string[0];
            if (files.Length == 0)
            {
                yield return new TestCaseData(Path.Combine(dir, "(no scenario files)")).SetName("corpus_is_present");
                yield break;
            }
            foreach (string f in files.OrderBy(f => f, System.StringComparer.Ordinal))
                yield return new TestCaseData(f).SetName("scenario_" + Path.GetFileNameWithoutExtension(f));
        }

        [TestCaseSource("Files")]
        public void Scenario(string path)
        {
            Assert.IsTrue(File.Exists(path), "the conformance corpus exists: " + path);
            List<string> failures = ScenarioRunner.RunFile(path);
            Assert.IsEmpty(failures, string.Join("\n", failures.ToArray()));
        }

        [Test]
        public void TheRunnerCatchesAWrongExpectation()
        {
            // A scenario the runner must fail: proves a passing corpus is not a runner that checks nothing.
            string path = Path.Combine(Path.GetTempPath(), "argus_wrong_expectation.json");
            File.WriteAllText(path, "{\"name\": \"argus_wrong_expectation\", \"source\": \"runner self-test\", \"tolerance\": 0.0001," +
                "\"agents\": [{\"name\": \"guard\", \"position\": [0, 0, 0], \"forward\": [0, 0, 1], \"sight\": {\"eye_offset\": [0, 0, 0], \"rate_hz\": 0}}]," +
                "\"targets\": [{\"name\": \"ahead\", \"position\": [0, 0, 5], \"check_points\": [[0, 0, 0]]}]," +
                "\"timeline\": [{\"do\": \"can_see\", \"agent\": \"guard\", \"target\": \"ahead\", \"expect\": {\"seen\": false}}," +
                "{\"do\": \"step\", \"dt\": 0.1, \"expect\": {\"percepts\": [], \"typo\": 1}}]}");
            List<string> failures = ScenarioRunner.RunFile(path);
            File.Delete(path);
            Assert.AreEqual(2, failures.Count, string.Join("\n", failures.ToArray()));
            StringAssert.Contains("seen: expected False, got True", failures[0]);
            StringAssert.Contains("unknown field \"typo\"", failures[1]);
        }
    }
}
