// The package as Unity would import it: package.json, asmdefs and every .meta well-formed, GUIDs
// unique and stable, the C# bindings in one place (Runtime/Bindings), the plugin settings sane.
using System;
using System.Collections.Generic;
using System.IO;
using System.Json;
using System.Security.Cryptography;
using System.Text;
using NUnit.Framework;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class PackageTests
    {
        // $ARGUS_UNITY_PACKAGE: an installed copy (the UPM tarball unpacked); else unity/ of the checkout.
        static string Package
        {
            get
            {
                string installed = Environment.GetEnvironmentVariable("ARGUS_UNITY_PACKAGE");
                return string.IsNullOrEmpty(installed) ? Path.Combine(CorpusTests.Root(), "unity") : installed;
            }
        }

        static string Rel(string full) { return full.Substring(Package.Length + 1).Replace('\\', '/'); }

        static bool Hidden(string rel)
        {
            foreach (var part in rel.Split('/'))
                if (part.StartsWith(".", StringComparison.Ordinal) || part == "Documentation~" || part == "Tools~") return true;
            return false;
        }

        static JsonObject Json(string rel) { return (JsonObject)JsonValue.Parse(File.ReadAllText(Path.Combine(Package, rel))); }

        [Test]
        public void PackageJson_HasWhatTheRegistryNeeds()
        {
            JsonObject p = Json("package.json");
            Assert.AreEqual("com.argus.perception", (string)p["name"]);
            StringAssert.IsMatch(@"^\d+\.\d+\.\d+$", (string)p["version"]);
            Assert.AreEqual("2021.3", (string)p["unity"]);
            Assert.IsNotEmpty((string)p["displayName"]);
            Assert.Greater(((string)p["description"]).Length, 40);
            var samples = (JsonArray)p["samples"];
            Assert.Greater(samples.Count, 0);
            foreach (JsonObject s in samples)
                Assert.IsTrue(Directory.Exists(Path.Combine(Package, (string)s["path"])), (string)s["path"]);
            foreach (var f in new[] { "README.md", "CHANGELOG.md", "LICENSE.md" })
                Assert.IsTrue(File.Exists(Path.Combine(Package, f)), f);
            // The repository's package builds its own plugin; the released tarball carries the libraries instead.
            string installed = Environment.GetEnvironmentVariable("ARGUS_UNITY_PACKAGE");
            Assert.AreEqual(string.IsNullOrEmpty(installed), File.Exists(Path.Combine(Package, "build-plugin.sh")), "build-plugin.sh");
            Assert.IsTrue(Directory.Exists(Path.Combine(Package, "Documentation~")));
        }

        [Test]
        public void Asmdefs_AreWellFormed()
        {
            JsonObject runtime = Json("Runtime/Argus.Perception.asmdef");
            Assert.AreEqual("Argus.Perception", (string)runtime["name"]);
            Assert.IsTrue((bool)runtime["allowUnsafeCode"], "the bindings use pointers");
            JsonObject editor = Json("Editor/Argus.Perception.Editor.asmdef");
            CollectionAssert.Contains(Strings(editor["includePlatforms"]), "Editor");
            CollectionAssert.Contains(Strings(editor["references"]), "Argus.Perception");
            foreach (var rel in new[] { "Tests/Runtime/Argus.Perception.Tests.asmdef", "Tests/Editor/Argus.Perception.Editor.Tests.asmdef" })
            {
                JsonObject t = Json(rel);
                CollectionAssert.Contains(Strings(t["precompiledReferences"]), "nunit.framework.dll", rel);
                CollectionAssert.Contains(Strings(t["defineConstraints"]), "UNITY_INCLUDE_TESTS", rel);
                CollectionAssert.Contains(Strings(t["references"]), "UnityEngine.TestRunner", rel);
            }
        }

        static List<string> Strings(JsonValue v)
        {
            var list = new List<string>();
            foreach (JsonValue s in (JsonArray)v) list.Add((string)s);
            return list;
        }

        static string Guid(string metaText)
        {
            foreach (var line in metaText.Split('\n'))
                if (line.StartsWith("guid: ", StringComparison.Ordinal)) return line.Substring(6).Trim();
            return null;
        }

        [Test]
        public void EveryFileAndFolder_HasAMeta_WithAUniqueStableGuid()
        {
            var guids = new Dictionary<string, string>();
            int checkedMetas = 0;
            using (var md5 = MD5.Create())
            {
                foreach (var full in Directory.GetFileSystemEntries(Package, "*", SearchOption.AllDirectories))
                {
                    string rel = Rel(full);
                    if (Hidden(rel)) continue;
                    if (rel.EndsWith(".meta", StringComparison.Ordinal))
                    {
                        string text = File.ReadAllText(full);
                        StringAssert.StartsWith("fileFormatVersion: 2\n", text, rel);
                        string guid = Guid(text);
                        StringAssert.IsMatch("^[0-9a-f]{32}$", guid ?? "", rel);
                        Assert.IsFalse(guids.ContainsKey(guid), rel + " reuses the GUID of " + (guid != null && guids.ContainsKey(guid) ? guids[guid] : ""));
                        guids[guid] = rel;
                        string asset = rel.Substring(0, rel.Length - 5);
                        string expected = BitConverter.ToString(md5.ComputeHash(Encoding.UTF8.GetBytes("com.argus.perception/" + asset))).Replace("-", "").ToLowerInvariant();
                        Assert.AreEqual(expected, guid, rel + ": GUIDs are derived from the path, so they never change");
                        checkedMetas++;
                        continue;
                    }
                    if (rel.EndsWith("~", StringComparison.Ordinal)) continue; // hidden from Unity: no .meta
                    Assert.IsTrue(File.Exists(full + ".meta"), rel + " has no .meta");
                    if (Directory.Exists(full)) StringAssert.Contains("folderAsset: yes", File.ReadAllText(full + ".meta"), rel);
                }
            }
            Assert.Greater(checkedMetas, 50);
        }

        [Test]
        public void PackageJsonMeta_UsesThePackageManifestImporter()
        {
            // What Unity writes for a package's manifest (a TextScriptImporter makes it a TextAsset).
            StringAssert.Contains("\nPackageManifestImporter:\n", File.ReadAllText(Path.Combine(Package, "package.json.meta")));
        }

        [Test]
        public void Changelog_EveryReleaseHasADate()
        {
            int releases = 0;
            foreach (var line in File.ReadAllLines(Path.Combine(Package, "CHANGELOG.md")))
            {
                if (!line.StartsWith("## [", StringComparison.Ordinal) || line.StartsWith("## [Unreleased]", StringComparison.Ordinal)) continue;
                StringAssert.IsMatch(@"^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$", line);
                releases++;
            }
            Assert.Greater(releases, 0);
        }

        [Test]
        public void Docs_SayWhatAUnityDeveloperTripsOver()
        {
            string docs = File.ReadAllText(Path.Combine(Package, "README.md")) + "\n"
                + File.ReadAllText(Path.Combine(Package, "Documentation~/com.argus.perception.md"));
            StringAssert.Contains("Read/Write", docs, "MeshCollider occluders need Read/Write-enabled meshes in player builds");
            StringAssert.Contains("restart the Editor", docs, "a rebuilt native library is loaded at the next Editor start");
            StringAssert.Contains("raysHitTriggers", docs);
            StringAssert.Contains("no enabled PerceptionWorld", docs);
            // WebGL is not built or tested here: never claimed as supported.
            foreach (var line in docs.Split('\n'))
                if (line.Contains("WebGL"))
                    StringAssert.IsMatch("not supported|not built|not tested|untested", line, "a WebGL claim: " + line);
        }

        [Test]
        public void LinuxPlugin_IsEnabledForTheEditorAndLinuxPlayers()
        {
            string meta = File.ReadAllText(Path.Combine(Package, "Plugins/Linux/x86_64/libargus.so.meta"));
            StringAssert.Contains("PluginImporter:", meta);
            StringAssert.Contains("Exclude Linux64: 0", meta);
            StringAssert.Contains("Exclude Win64: 1", meta);
            StringAssert.Contains("OS: Linux", meta);
        }

        // asmdef platform name -> the PluginImporter's player name (Unity's names on both sides).
        static readonly Dictionary<string, string> PlayerOf = new Dictionary<string, string>
        {
            { "LinuxStandalone64", "Linux64" }, { "WindowsStandalone64", "Win64" }, { "WindowsStandalone32", "Win" },
            { "macOSStandalone", "OSXUniversal" }, { "Android", "Android" }, { "iOS", "iOS" }, { "WebGL", "WebGL" },
            { "tvOS", "tvOS" }, { "VisionOS", "VisionOS" },
        };

        // Players enabled by a PluginImporter .meta text ("- first:\n      Standalone: Linux64\n    second:\n      enabled: 1").
        static List<string> EnabledPlayers(string meta)
        {
            var players = new List<string>();
            foreach (System.Text.RegularExpressions.Match m in System.Text.RegularExpressions.Regex.Matches(meta,
                @"- first:\n\s+(\w+): (\w+)\n\s+second:\n\s+enabled: 1"))
                if (m.Groups[1].Value != "Editor") players.Add(m.Groups[2].Value);
            return players;
        }

        [Test]
        public void Platforms_AsmdefImportNameAndPlugins_Agree()
        {
            // The Runtime asmdef compiles for the platforms the package ships a library for, and no other:
            // Windows, macOS and Linux desktop (a platform in the asmdef without a library fails at the first call).
            var include = Strings(Json("Runtime/Argus.Perception.asmdef")["includePlatforms"]);
            CollectionAssert.AreEquivalent(new[] { "Editor", "LinuxStandalone64", "macOSStandalone", "WindowsStandalone64" }, include);
            CollectionAssert.AreEquivalent(include, Strings(Json("Tests/Runtime/Argus.Perception.Tests.asmdef")["includePlatforms"]),
                "the PlayMode tests reference the Runtime assembly: same platforms");
            var asmdefPlayers = new List<string>();
            foreach (var p in include) if (p != "Editor") asmdefPlayers.Add(PlayerOf[p]);

            // The plugins metas.py writes importer settings for (what build-plugin.sh and tools/release.sh ship).
            string metas = File.ReadAllText(Path.Combine(Package, "Tools~/metas.py"));
            var tablePlayers = new List<string>();
            foreach (System.Text.RegularExpressions.Match m in System.Text.RegularExpressions.Regex.Matches(metas,
                @"^\s+""(Plugins/[^""]+)"": \([^\[]*\[\(""\w+"", ""(\w+)""", System.Text.RegularExpressions.RegexOptions.Multiline))
                tablePlayers.Add(m.Groups[2].Value);
            CollectionAssert.AreEquivalent(asmdefPlayers, tablePlayers, "metas.py PLUGINS against the asmdef's includePlatforms");

            // Every plugin .meta present enables only players the asmdef includes (and the Editor on its OS).
            int metasSeen = 0;
            foreach (var meta in Directory.GetFiles(Path.Combine(Package, "Plugins"), "*.meta", SearchOption.AllDirectories))
            {
                string text = File.ReadAllText(meta);
                if (!text.Contains("PluginImporter:")) continue;
                metasSeen++;
                foreach (var player in EnabledPlayers(text)) CollectionAssert.Contains(asmdefPlayers, player, Rel(meta));
            }
            Assert.Greater(metasSeen, 0);

            // The import name: "argus" (a dynamic library) on every included platform. A `#if UNITY_<X>` choosing
            // "__Internal" in NativeMethods names a statically linked platform, which the asmdef must then include
            // with a plugin: none is shipped, so there is none.
            Assert.AreEqual("argus", typeof(Argus.NativeMethods).GetField("Library").GetRawConstantValue());
            string native = File.ReadAllText(Path.Combine(Package, "Runtime/Bindings/Generated/NativeMethods.g.cs"));
            StringAssert.DoesNotContain("#if", native.Substring(0, native.IndexOf("public const string Library", StringComparison.Ordinal)).Substring(
                native.IndexOf("class NativeMethods", StringComparison.Ordinal)), "a per-platform import name");
            StringAssert.DoesNotContain("= \"__Internal\"", native);
        }

        [Test]
        public void StandInBuild_MakesObsoleteApiAnError_AsUnity6000_4Too()
        {
            // No API Unity marks obsolete: the stand-in marks what the reference source marks, and the
            // build neither hides CS0618 nor lets a warning pass; 40-unity.sh compiles the 6000.4 variant.
            string build = File.ReadAllText(Path.Combine(CorpusTests.Root(), "tests/unity/build.sh"));
            StringAssert.DoesNotContain("-nowarn:618", build);
            StringAssert.Contains("-warnaserror+", build);
            StringAssert.Contains("-define:UNITY_6000_4_OR_NEWER", build);
            StringAssert.Contains("2021.3 2022.2 6000.4", File.ReadAllText(Path.Combine(CorpusTests.Root(), "tests/suites/40-unity.sh")));
        }

        [Test]
        public void PluginMetas_StandOnlyBesideTheirLibraries()
        {
            // Unity warns on every refresh about a .meta whose asset is missing.
            int plugins = 0;
            foreach (var meta in Directory.GetFiles(Path.Combine(Package, "Plugins"), "*.meta", SearchOption.AllDirectories))
            {
                string asset = meta.Substring(0, meta.Length - ".meta".Length);
                Assert.IsTrue(File.Exists(asset) || Directory.Exists(asset), Rel(meta) + " has no library beside it");
                if (File.ReadAllText(meta).Contains("PluginImporter:")) plugins++;
            }
            Assert.Greater(plugins, 0);
        }

        // The C# bindings live once, in Runtime/Bindings: the Runtime asmdef compiles them (no asmdef or
        // asmref below it splits them off), and the engine-agnostic library (bindings/csharp/build.sh, the
        // .nupkg of tools/release.sh) compiles the same files. No second copy anywhere in the checkout.
        static readonly string[] BindingsFiles = { "World.cs", "WorldHandle.cs", "Library.cs", "Numerics.cs", "AssemblyInfo.cs",
            "Generated/NativeMethods.g.cs", "Generated/Types.g.cs" };

        [Test]
        public void Bindings_LiveInRuntimeBindings_CompiledByTheRuntimeAsmdef()
        {
            string bindings = Path.Combine(Package, "Runtime/Bindings");
            foreach (var f in BindingsFiles) Assert.IsTrue(File.Exists(Path.Combine(bindings, f)), "Runtime/Bindings/" + f);
            Assert.IsEmpty(Directory.GetFiles(bindings, "*.asmdef", SearchOption.AllDirectories));
            Assert.IsEmpty(Directory.GetFiles(bindings, "*.asmref", SearchOption.AllDirectories));
            Assert.AreEqual(typeof(Argus.World).Assembly, typeof(Argus.Perception.PerceptionWorld).Assembly,
                "the bindings compile into the Runtime assembly");
        }

        [Test]
        public void Bindings_HaveOneCopyInTheCheckout()
        {
            if (!string.IsNullOrEmpty(Environment.GetEnvironmentVariable("ARGUS_UNITY_PACKAGE"))) Assert.Pass("an installed package: no checkout to search");  // not Ignore: the suites count not-run as failed
            string root = CorpusTests.Root();
            string home = Path.Combine(root, "unity/Runtime/Bindings");
            var names = new HashSet<string>();
            foreach (var f in Directory.GetFiles(home, "*.cs", SearchOption.AllDirectories)) names.Add(Path.GetFileName(f));
            var elsewhere = new List<string>();
            foreach (var top in Directory.GetDirectories(root))
            {
                string name = Path.GetFileName(top);
                if (name == "target" || name.StartsWith(".")) continue;
                foreach (var f in Directory.GetFiles(top, "*.cs", SearchOption.AllDirectories))
                    if (!f.StartsWith(home + Path.DirectorySeparatorChar) && names.Contains(Path.GetFileName(f))) elsewhere.Add(f.Substring(root.Length + 1));
            }
            CollectionAssert.IsEmpty(elsewhere, "a second copy of the bindings");
            Assert.IsFalse(Directory.Exists(Path.Combine(root, "bindings/csharp/Argus")));
            StringAssert.Contains("unity/Runtime/Bindings", File.ReadAllText(Path.Combine(root, "bindings/csharp/build.sh")));
            StringAssert.Contains("-recurse:\"unity/Runtime/Bindings/*.cs\"", File.ReadAllText(Path.Combine(root, "tools/release.sh")));
        }

        [Test]
        public void Bindings_InAUnityBuild_CarryNoSystemNumerics()
        {
            // Numerics.cs is left out under UNITY_5_3_OR_NEWER: Unity has its own Vector3, and a
            // System.Numerics conversion would make `v = position` ambiguous or pull in an assembly.
            foreach (var a in typeof(Argus.Vec3).Assembly.GetReferencedAssemblies())
                Assert.AreNotEqual("System.Numerics", a.Name, "Argus.Perception references System.Numerics");
            foreach (var t in new[] { typeof(Argus.Vec3), typeof(Argus.Quat) })
                foreach (var m in t.GetMethods())
                {
                    Assert.AreNotEqual("System.Numerics", m.ReturnType.Namespace, t.Name + "." + m.Name);
                    foreach (var p in m.GetParameters()) Assert.AreNotEqual("System.Numerics", p.ParameterType.Namespace, t.Name + "." + m.Name);
                }
        }
    }
}
