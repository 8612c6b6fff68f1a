using System;
using System.Collections.Generic;
using System.IO;
using NUnit.Framework;

namespace Argus.Perception.StandInTests
{
    /// <summary>One NUnit test per conformance scenario, run through the Unity components.</summary>
    [TestFixture]
    public class CorpusTests
    {
        /// <summary>The repository root: $ARGUS_ROOT, else the first parent of the working directory
        /// that has tests/scenarios.</summary>
        public static string Root()
        {
            string env = Environment.GetEnvironmentVariable("ARGUS_ROOT");
            if (!string.IsNullOrEmpty(env)) return env;
            for (var d = new DirectoryInfo(Environment.CurrentDirectory); d != null; d = d.Parent)
                if (Directory.Exists(Path.Combine(d.FullName, Path.Combine("tests", "scenarios")))) return d.FullName;
            throw new DirectoryNotFoundException("tests/scenarios not found; set ARGUS_ROOT");
        }

        public static IEnumerable<string> Scenarios()
        {
            string dir = Path.Combine(Root(), Path.Combine("tests", "scenarios"));
            var files = new List<string>(Directory.GetFiles(dir, "*.json"));
            files.Sort(StringComparer.Ordinal);
            if (files.Count == 0) throw new InvalidOperationException("the corpus is empty");
            foreach (var f in files) yield return Path.GetFileNameWithoutExtension(f);
        }

        static List<string> Run(string name, string json)
        {
            StandIn.Player.Reset();
            var runner = new CorpusRunner(name, json);
            runner.Run();
            StandIn.Player.Reset();
            return runner.Errors;
        }

        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [Test, TestCaseSource("Scenarios")]
        public void Scenario(string name)
        {
            string json = File.ReadAllText(Path.Combine(Root(), Path.Combine("tests", Path.Combine("scenarios", name + ".json"))));
            List<string> errors = Run(name, json);
            if (errors.Count > 0) Assert.Fail(string.Join("\n", errors.ToArray()));
        }

        [Test]
        public void Runner_ReportsAChangedExpectation()
        {
            // Proves the runner can fail: the lesson's memory trace with one confidence changed.
            string path = Path.Combine(Root(), Path.Combine("tests", Path.Combine("scenarios", "memory_decay_lesson_trace.json")));
            string json = File.ReadAllText(path);
            int at = json.IndexOf("\"confidence\": 0.8", StringComparison.Ordinal);
            Assert.GreaterOrEqual(at, 0, "the trace names confidence 0.8");
            string broken = json.Substring(0, at) + "\"confidence\": 0.7" + json.Substring(at + "\"confidence\": 0.8".Length);
            List<string> errors = Run("broken", broken);
            Assert.AreEqual(1, errors.Count, string.Join("\n", errors.ToArray()));
            StringAssert.Contains("Confidence: expected 0.7", errors[0]);
        }

        [Test]
        public void Runner_RefusesUnknownActions()
        {
            List<string> errors = Run("unknown", "{\"name\": \"x\", \"timeline\": [{\"do\": \"dance\"}]}");
            Assert.AreEqual(1, errors.Count);
            StringAssert.Contains("unknown action 'dance'", errors[0]);
        }
    }
}
