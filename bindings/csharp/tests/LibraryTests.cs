using System.IO;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Loading: a missing library and a library of another ABI are explained, not mysterious.</summary>
    [TestFixture]
    public class LibraryTests
    {
        [Test]
        public void AnAbiMismatchNamesTheLibraryFoundAndTheOneExpected()
        {
            string message = Library.MismatchMessage("/opt/game/libargus.so", "0.0.9", 99);
            StringAssert.Contains("/opt/game/libargus.so", message);
            StringAssert.Contains("version 0.0.9, ABI 99", message);
            StringAssert.Contains("ABI " + Constants.ABI_VERSION + ")", message);
            StringAssert.Contains(Constants.VERSION_MAJOR + "." + Constants.VERSION_MINOR + "." + Constants.VERSION_PATCH, message);
        }

        [Test]
        public void AMissingLibraryThrowsDllNotFoundWithTheSearchRules()
        {
            // A program run where libargus.so cannot be found (empty LD_LIBRARY_PATH, a fresh directory).
            string dir = Path.Combine(Path.GetTempPath(), "argus-missing-" + System.Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            File.Copy(typeof(World).Assembly.Location, Path.Combine(dir, "Argus.dll"));
            string source = Path.Combine(dir, "Missing.cs");
            File.WriteAllText(source, "static class Missing { static int Main() { try { new Argus.World(); return 1; }" +
                " catch (System.DllNotFoundException e) { System.Console.WriteLine(e.Message); return 0; } } }");
            string exe = Path.Combine(dir, "missing.exe");
            Support.Run("mcs", "-out:" + exe + " -r:" + Path.Combine(dir, "Argus.dll") + " " + source);
            string output;
            int code = Support.Run("mono", exe, "", out output);
            Directory.Delete(dir, true);
            Assert.AreEqual(0, code, "DllNotFoundException was thrown: " + output);
            StringAssert.Contains("The Argus native library 'argus' was not found", output);
            StringAssert.Contains("LD_LIBRARY_PATH", output);
        }
    }
}
