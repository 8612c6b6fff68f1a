using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>The bindings cannot drift from the header or the library: same functions, same layouts.</summary>
    [TestFixture]
    public class DriftTests
    {
        static Dictionary<string, int> HeaderFunctions()
        {
            string text = File.ReadAllText(Path.Combine(Support.Root, "include", "argus.h"));
            text = Regex.Replace(text, @"/\*.*?\*/", " ", RegexOptions.Singleline);
            text = Regex.Replace(text, @"//[^\n]*", "");
            var result = new Dictionary<string, int>();
            foreach (Match m in Regex.Matches(text, @"\b(argus_\w+)\s*\(([^()]*)\)\s*;"))
            {
                string args = m.Groups[2].Value.Trim();
                result[m.Groups[1].Value] = args == "void" || args == "" ? 0 : args.Split(',').Length;
            }
            return result;
        }

        static Dictionary<string, int> DeclaredFunctions()
        {
            var result = new Dictionary<string, int>();
            foreach (MethodInfo m in typeof(NativeMethods).GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static))
            {
                var import = (DllImportAttribute)Attribute.GetCustomAttribute(m, typeof(DllImportAttribute));
                if (import == null) continue;
                Assert.AreEqual(NativeMethods.Library, import.Value, m.Name + " uses the one library constant");
                string entry = string.IsNullOrEmpty(import.EntryPoint) ? m.Name : import.EntryPoint;
                int count = m.GetParameters().Length;
                int seen;
                if (result.TryGetValue(entry, out seen)) Assert.AreEqual(seen, count, entry + " declared twice differently");
                result[entry] = count;
            }
            return result;
        }

        [Test]
        public void EveryHeaderFunctionIsDeclaredWithItsParameterCount()
        {
            var header = HeaderFunctions();
            var declared = DeclaredFunctions();
            Assert.Greater(header.Count, 50, "the header parser found the functions");
            CollectionAssert.AreEquivalent(header.Keys.ToList(), declared.Keys.ToList());
            foreach (var kv in header) Assert.AreEqual(kv.Value, declared[kv.Key], kv.Key + " parameter count");
            foreach (var row in LayoutTable.Functions) Assert.AreEqual(int.Parse(row[1]), header[row[0]], row[0]);
        }

        [Test]
        public void EveryExportedSymbolIsDeclared()
        {
            string lib = Path.Combine(Support.LibDir, "libargus.so");
            Assert.IsTrue(File.Exists(lib), lib + " exists");
            string nm = Support.Run("nm", "-D --defined-only " + lib);
            var exported = new HashSet<string>();
            foreach (string line in nm.Split('\n'))
            {
                string[] parts = line.Trim().Split(' ');
                if (parts.Length == 3 && parts[1] == "T" && parts[2].StartsWith("argus_")) exported.Add(parts[2]);
            }
            Assert.Greater(exported.Count, 50);
            // The test hook is exported only by test builds (cargo feature `testing`) and declared by the
            // tests themselves (TestHooks), never by the bindings.
            exported.Remove(TestHooks.TriggerPanicSymbol);
            CollectionAssert.AreEquivalent(exported.ToList(), DeclaredFunctions().Keys.ToList());
        }

        [Test]
        public void EveryStructSizeAndFieldOffsetEqualsTheCCompilers()
        {
            string exe = Path.Combine(Path.GetTempPath(), "argus-layout-" + Guid.NewGuid().ToString("N"));
            Support.Run("gcc", "-std=c99 -Wall -Werror -I include -o " + exe + " bindings/csharp/tests/Generated/Layout.g.c");
            string output = Support.Run(exe, "");
            File.Delete(exe);
            var c = new Dictionary<string, long>();
            foreach (string line in output.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries))
            {
                string[] p = line.Split(' ');
                c[p[0] == "size" ? p[1] : p[1] + "." + p[2]] = long.Parse(p[p.Length - 1]);
            }
            var types = new Dictionary<string, Type>();
            foreach (object[] s in LayoutTable.Structs)
            {
                var type = (Type)s[1];
                types[(string)s[0]] = type;
                Assert.AreEqual(c[(string)s[0]], Marshal.SizeOf(type), "sizeof " + s[0]);
                Assert.IsTrue(type.IsLayoutSequential || type.IsExplicitLayout, s[0] + " layout");
            }
            var fieldsPerType = new Dictionary<Type, int>();
            foreach (string[] f in LayoutTable.Fields)
            {
                Type type = types[f[0]];
                Assert.AreEqual(c[f[0] + "." + f[1]], (long)Marshal.OffsetOf(type, f[2]), "offsetof " + f[0] + "." + f[1]);
                int n;
                fieldsPerType.TryGetValue(type, out n);
                fieldsPerType[type] = n + 1;
            }
            foreach (var kv in fieldsPerType)
                Assert.AreEqual(kv.Value, kv.Key.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic).Length,
                    kv.Key.Name + " has no field the C struct lacks");
            int cStructs = c.Keys.Count(k => !k.Contains("."));
            Assert.AreEqual(cStructs, LayoutTable.Structs.Length, "every C struct is mirrored");
            Assert.AreEqual(c.Count - cStructs, LayoutTable.Fields.Length, "every C field is mirrored");
        }

        [Test]
        public void TheGeneratedFilesAreFreshFromTheHeader()
        {
            string output = Support.Run("python3", "bindings/csharp/generate.py --check");
            StringAssert.Contains("checked", output);
        }

        [Test]
        public void TheLibraryIsTheOneTheBindingsExpect()
        {
            Library.EnsureLoaded();
            Assert.AreEqual(Library.ExpectedAbiVersion, NativeMethods.argus_abi_version());
            Assert.AreEqual(Constants.VERSION_MAJOR + "." + Constants.VERSION_MINOR + "." + Constants.VERSION_PATCH, Library.Version);
            StringAssert.Contains("libargus", Library.LoadedPath());
            Assert.AreEqual(Constants.VERSION_MAJOR << 16 | Constants.VERSION_MINOR << 8 | Constants.VERSION_PATCH, Library.VersionNumber);
        }
    }
}
