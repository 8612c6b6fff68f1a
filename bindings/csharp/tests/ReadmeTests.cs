using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>The C# quick starts of both READMEs compile with mcs and run against the library.</summary>
    [TestFixture]
    public class ReadmeTests
    {
        [TestCase("README.md")]
        [TestCase("bindings/csharp/README.md")]
        public void TheCSharpQuickStartCompilesAndRuns(string readme)
        {
            string text = File.ReadAllText(Path.Combine(Support.Root, readme));
            var blocks = Regex.Matches(text, "```csharp\n(.*?)```", RegexOptions.Singleline).Cast<Match>().ToList();
            Assert.IsNotEmpty(blocks, readme + " has a C# quick start");
            string code = blocks[0].Groups[1].Value;
            string[] lines = code.Split('\n');
            string usings = string.Join("\n", lines.Where(l => l.StartsWith("using ") && l.TrimEnd().EndsWith(";")).ToArray());
            string body = string.Join("\n", lines.Where(l => !(l.StartsWith("using ") && l.TrimEnd().EndsWith(";"))).ToArray());
            string dir = Path.Combine(Path.GetTempPath(), "argus-readme-" + System.Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            string source = Path.Combine(dir, "QuickStart.cs");
            File.WriteAllText(source, usings + "\nstatic class QuickStart\n{\n    static void Main()\n    {\n" + body +
                "\n        System.Console.WriteLine(\"quick start ran\");\n    }\n}\n");
            string argus = typeof(World).Assembly.Location;
            File.Copy(argus, Path.Combine(dir, "Argus.dll"));
            Support.Run("mcs", "-langversion:7 -unsafe -nowarn:168,219 -out:" + Path.Combine(dir, "q.exe") + " -r:" +
                Path.Combine(dir, "Argus.dll") + " " + source);
            StringAssert.Contains("quick start ran", Support.Run("mono", Path.Combine(dir, "q.exe")));
            Directory.Delete(dir, true);
        }
    }
}
