// The package as Unity would import it: package.json, asmdefs and every .meta well-formed, GUIDs
// unique and stable, the C# bindings in one place (Runtime/Bindings), the plugin settings sane.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Json;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
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
            // Android, iOS and WebGL are built here but never run on a device, in a browser or in a Unity
            // player: a line naming one of them that speaks of running, testing or support says "not".
            foreach (var line in docs.Split('\n'))
                if (Regex.IsMatch(line, @"\b(WebGL|Android|iOS)\b") && Regex.IsMatch(line, @"(?i)\b(support\w*|tested|runs?|ran|works?)\b"))
                    StringAssert.IsMatch("(?i)not (run|tested|supported)|untested", line, "a claim about Android, iOS or WebGL: " + line);
            // Android, iOS and WebGL libraries are cross-built only: both documents say so.
            foreach (var doc in new[] { "README.md", "Documentation~/com.argus.perception.md" })
                StringAssert.Contains("built, not run on a device or in a Unity player here",
                    Regex.Replace(File.ReadAllText(Path.Combine(Package, doc)), @"\s+", " "), doc);
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

        // The plugins metas.py writes importer settings for (what build-plugin.sh and tools/release.sh ship):
        // library path -> the player it is enabled for (the first of its table entry's players; each has one).
        static List<KeyValuePair<string, string>> PluginTable()
        {
            string metas = File.ReadAllText(Path.Combine(Package, "Tools~/metas.py"));
            var table = new List<KeyValuePair<string, string>>();
            foreach (Match m in Regex.Matches(metas, @"^\s+""(Plugins/[^""]+)"": \([^\[]*\[\(""\w+"", ""(\w+)""", RegexOptions.Multiline))
                table.Add(new KeyValuePair<string, string>(m.Groups[1].Value, m.Groups[2].Value));
            return table;
        }

        // The scripting symbols Unity defines when it compiles for a player (Unity's scripting symbol
        // reference); the Editor adds UNITY_EDITOR to the active build target's symbols.
        static readonly Dictionary<string, string[]> PlayerSymbols = new Dictionary<string, string[]>
        {
            { "Linux64", new[] { "UNITY_STANDALONE", "UNITY_STANDALONE_LINUX" } },
            { "Win64", new[] { "UNITY_STANDALONE", "UNITY_STANDALONE_WIN" } },
            { "OSXUniversal", new[] { "UNITY_STANDALONE", "UNITY_STANDALONE_OSX" } },
            { "Android", new[] { "UNITY_ANDROID" } },
            { "iOS", new[] { "UNITY_IOS", "UNITY_IPHONE" } },
            { "WebGL", new[] { "UNITY_WEBGL" } },
        };

        // NativeMethods.Library as compiled with each set of symbols: the declaration (with its #if lines)
        // is cut out of NativeMethods.g.cs and compiled once per set, in one mcs run (#define is per file).
        static List<string> ImportNames(List<string[]> symbolSets)
        {
            string native = File.ReadAllText(Path.Combine(Package, "Runtime/Bindings/Generated/NativeMethods.g.cs"));
            int cls = native.IndexOf("class NativeMethods", StringComparison.Ordinal);
            int open = native.IndexOf('{', cls) + 1;
            string block = native.Substring(open, native.IndexOf("[DllImport", open, StringComparison.Ordinal) - open);
            var kept = new StringBuilder();
            foreach (var line in block.Split('\n'))
                if (!line.TrimStart().StartsWith("///", StringComparison.Ordinal)) kept.Append(line).Append('\n');
            StringAssert.Contains("const string Library", kept.ToString(), "the import name is declared before the first DllImport");
            string dir = Path.Combine(Path.GetTempPath(), "argus-import-name-" + Process.GetCurrentProcess().Id);
            Directory.CreateDirectory(dir);
            try
            {
                var files = new StringBuilder();
                for (int i = 0; i < symbolSets.Count; i++)
                {
                    var src = new StringBuilder();
                    foreach (var symbol in symbolSets[i]) src.Append("#define ").Append(symbol).Append('\n');
                    src.Append("namespace Probe { public static class Case").Append(i).Append(" {\n").Append(kept).Append("} }\n");
                    string file = Path.Combine(dir, "Case" + i + ".cs");
                    File.WriteAllText(file, src.ToString());
                    files.Append(" \"").Append(file).Append('"');
                }
                string dll = Path.Combine(dir, "Probe.dll");
                var psi = new ProcessStartInfo("mcs", "-langversion:7 -target:library -out:\"" + dll + "\"" + files)
                {
                    UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
                };
                using (var p = Process.Start(psi))
                {
                    string output = p.StandardOutput.ReadToEnd() + p.StandardError.ReadToEnd();
                    p.WaitForExit();
                    Assert.AreEqual(0, p.ExitCode, "the Library declaration does not compile alone:\n" + output);
                }
                var asm = Assembly.Load(File.ReadAllBytes(dll));
                var names = new List<string>();
                for (int i = 0; i < symbolSets.Count; i++)
                    names.Add((string)asm.GetType("Probe.Case" + i).GetField("Library").GetRawConstantValue());
                return names;
            }
            finally
            {
                Directory.Delete(dir, true);
            }
        }

        [Test]
        public void Platforms_AsmdefImportNameAndPlugins_Agree()
        {
            // The Runtime asmdef compiles for the platforms the package ships a library for, and no other
            // (a platform in the asmdef without a library fails at the first call): Windows, macOS and Linux
            // desktop (Editor and player), Android, iOS and WebGL players.
            var include = Strings(Json("Runtime/Argus.Perception.asmdef")["includePlatforms"]);
            CollectionAssert.AreEquivalent(new[] { "Editor", "LinuxStandalone64", "macOSStandalone", "WindowsStandalone64",
                "Android", "iOS", "WebGL" }, include);
            CollectionAssert.AreEquivalent(include, Strings(Json("Tests/Runtime/Argus.Perception.Tests.asmdef")["includePlatforms"]),
                "the PlayMode tests reference the Runtime assembly: same platforms");
            var asmdefPlayers = new List<string>();
            foreach (var p in include) if (p != "Editor") asmdefPlayers.Add(PlayerOf[p]);

            // metas.py's PLUGINS: the players it enables, each with its libraries (Android has one per ABI).
            var libraries = new Dictionary<string, List<string>>();
            foreach (var entry in PluginTable())
            {
                if (!libraries.ContainsKey(entry.Value)) libraries[entry.Value] = new List<string>();
                libraries[entry.Value].Add(entry.Key);
            }
            CollectionAssert.AreEquivalent(asmdefPlayers, libraries.Keys, "metas.py PLUGINS against the asmdef's includePlatforms");
            CollectionAssert.AreEquivalent(new[] { "Plugins/Android/libs/arm64-v8a/libargus.so", "Plugins/Android/libs/armeabi-v7a/libargus.so" },
                libraries["Android"], "one Android library per ABI, in libs/<ABI>/");

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

            // The import name, as each target compiles it: "__Internal" in a player whose library is a static
            // archive linked into the player (iOS, WebGL: Unity's "statically linked plug-in" rule), else
            // "argus" (a dynamic library loaded by name); "argus" in the Editor whatever the active build
            // target, and outside Unity (no UNITY_ symbol: the .nupkg, bindings/csharp/build.sh).
            var sets = new List<string[]>();
            var expected = new List<string>();
            var what = new List<string>();
            foreach (var player in asmdefPlayers)
            {
                bool staticLib = false, dynamicLib = false;
                foreach (var lib in libraries[player])
                    if (lib.EndsWith(".a", StringComparison.Ordinal)) staticLib = true; else dynamicLib = true;
                Assert.IsFalse(staticLib && dynamicLib, player + " mixes a static and a dynamic library");
                var symbols = new List<string> { "UNITY_5_3_OR_NEWER" };
                symbols.AddRange(PlayerSymbols[player]);
                sets.Add(symbols.ToArray()); expected.Add(staticLib ? "__Internal" : "argus"); what.Add(player + " player");
                symbols.Add("UNITY_EDITOR");
                sets.Add(symbols.ToArray()); expected.Add("argus"); what.Add("the Editor targeting " + player);
            }
            sets.Add(new string[0]); expected.Add("argus"); what.Add("outside Unity");
            var names = ImportNames(sets);
            for (int i = 0; i < sets.Count; i++) Assert.AreEqual(expected[i], names[i], what[i] + " (" + string.Join(" ", sets[i]) + ")");
            CollectionAssert.Contains(expected, "__Internal", "iOS and WebGL link libargus.a into the player");
            // The stand-in build compiles the package as the Editor does.
            Assert.AreEqual("argus", typeof(Argus.NativeMethods).GetField("Library").GetRawConstantValue());
        }

        // One PluginImporter platformData entry of a serializedVersion 2 .meta ("Standalone: Linux64", ": Any", "Editor: Editor").
        class PlatformEntry
        {
            public int Enabled;
            public readonly Dictionary<string, string> Settings = new Dictionary<string, string>();
        }

        static Dictionary<string, PlatformEntry> PlatformData(string meta)
        {
            var data = new Dictionary<string, PlatformEntry>();
            string[] lines = meta.Split('\n');
            int i = Array.IndexOf(lines, "  platformData:");
            Assert.GreaterOrEqual(i, 0, "no platformData");
            for (i++; i < lines.Length && lines[i] == "  - first:"; )
            {
                string key = lines[i + 1].Trim();
                Assert.AreEqual("    second:", lines[i + 2], key);
                StringAssert.StartsWith("      enabled: ", lines[i + 3], key);
                var entry = new PlatformEntry { Enabled = int.Parse(lines[i + 3].Substring("      enabled: ".Length)) };
                Assert.IsFalse(data.ContainsKey(key), "two entries for " + key);
                data[key] = entry;
                i += 5;
                if (lines[i - 1] == "      settings: {}") continue;
                Assert.AreEqual("      settings:", lines[i - 1], key);
                for (; i < lines.Length && lines[i].StartsWith("        ", StringComparison.Ordinal); i++)
                {
                    string kv = lines[i].Substring(8);
                    int colon = kv.IndexOf(": ", StringComparison.Ordinal);
                    entry.Settings[kv.Substring(0, colon)] = kv.Substring(colon + 2);
                }
            }
            StringAssert.StartsWith("  userData:", lines[i], "platformData ends before userData");
            return data;
        }

        static string RunPython(string args, out int exitCode)
        {
            var psi = new ProcessStartInfo("python3", args) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
            using (var p = Process.Start(psi))
            {
                string output = p.StandardOutput.ReadToEnd() + p.StandardError.ReadToEnd();
                p.WaitForExit();
                exitCode = p.ExitCode;
                return output;
            }
        }

        static void CopyTree(string from, string to)
        {
            Directory.CreateDirectory(to);
            foreach (var f in Directory.GetFiles(from)) File.Copy(f, Path.Combine(to, Path.GetFileName(f)));
            foreach (var d in Directory.GetDirectories(from)) CopyTree(d, Path.Combine(to, Path.GetFileName(d)));
        }

        // Every library a release carries, the player it is for, and that player's importer settings, as
        // Unity names them: the group is BuildPipeline.GetBuildTargetGroupName ("iPhone" for iOS), the
        // player BuildPipeline.GetBuildTargetName; Android's CPU an AndroidArchitecture name (arm64-v8a is
        // ARM64, armeabi-v7a ARMv7). null: loaded by the Editor too, on that OS.
        static readonly string[][] Shipped =
        {
            new[] { "Plugins/Linux/x86_64/libargus.so", "Standalone: Linux64", "Linux64", "CPU=x86_64", "Linux" },
            new[] { "Plugins/Windows/x86_64/argus.dll", "Standalone: Win64", "Win64", "CPU=x86_64", "Windows" },
            new[] { "Plugins/macOS/libargus.dylib", "Standalone: OSXUniversal", "OSXUniversal", "CPU=AnyCPU", "OSX" },
            new[] { "Plugins/Android/libs/arm64-v8a/libargus.so", "Android: Android", "Android", "CPU=ARM64;AndroidSharedLibraryType=Executable", null },
            new[] { "Plugins/Android/libs/armeabi-v7a/libargus.so", "Android: Android", "Android", "CPU=ARMv7;AndroidSharedLibraryType=Executable", null },
            new[] { "Plugins/iOS/libargus.a", "iPhone: iOS", "iOS", "CPU=ARM64;AddToEmbeddedBinaries=false", null },
            new[] { "Plugins/WebGL/libargus.a", "WebGL: WebGL", "WebGL", "", null },
        };

        static readonly string[] AllPlayers = { "Android", "Linux64", "OSXUniversal", "WebGL", "Win", "Win64", "iOS" };

        [Test]
        public void PluginMetas_ForEveryShippedLibrary_EnableItsPlayerOnly()
        {
            // A copy of the package with all seven libraries (empty stand-ins where absent), as tools/release.sh
            // assembles it, then Tools~/metas.py --root on it, as the release does.
            string root = Path.Combine(Path.GetTempPath(), "argus-plugin-metas-" + Process.GetCurrentProcess().Id);
            if (Directory.Exists(root)) Directory.Delete(root, true);
            try
            {
                CopyTree(Package, root);
                foreach (var lib in Shipped)
                {
                    string path = Path.Combine(root, lib[0]);
                    Directory.CreateDirectory(Path.GetDirectoryName(path));
                    if (!File.Exists(path)) File.WriteAllText(path, "not a library");
                }
                string script = Path.Combine(root, "Tools~/metas.py");
                int code;
                string output = RunPython("\"" + script + "\" --root \"" + root + "\"", out code);
                Assert.AreEqual(0, code, output);
                output = RunPython("\"" + script + "\" --root \"" + root + "\" --check", out code);
                Assert.AreEqual(0, code, output);

                var guids = new HashSet<string>();
                foreach (var lib in Shipped)
                {
                    string rel = lib[0], key = lib[1], player = lib[2], editorOs = lib[4];
                    string meta = File.ReadAllText(Path.Combine(root, rel + ".meta"));
                    StringAssert.Contains("\nPluginImporter:\n", meta, rel);
                    Assert.IsTrue(guids.Add(Guid(meta)), rel + ": a GUID of its own");
                    var data = PlatformData(meta);

                    // The Any entry excludes every player but its own, and the Editor unless it loads it.
                    var any = data[": Any"].Settings;
                    foreach (var p in AllPlayers)
                        Assert.AreEqual(p == player ? "0" : "1", any["Exclude " + p], rel + ": Exclude " + p);
                    Assert.AreEqual(editorOs == null ? "1" : "0", any["Exclude Editor"], rel + ": Exclude Editor");
                    Assert.AreEqual(editorOs == null ? 0 : 1, data["Editor: Editor"].Enabled, rel + ": the Editor loads it");
                    Assert.AreEqual(editorOs ?? "AnyOS", data["Editor: Editor"].Settings["OS"], rel);

                    // Exactly one player entry, enabled, with Unity's settings for it.
                    var players = new List<string>();
                    foreach (var kv in data) if (kv.Key != ": Any" && kv.Key != "Any:" && kv.Key != "Editor: Editor") players.Add(kv.Key);
                    CollectionAssert.AreEqual(new[] { key }, players, rel);
                    Assert.AreEqual(1, data[key].Enabled, rel + ": " + key + " enabled");
                    var want = new Dictionary<string, string>();
                    foreach (var pair in lib[3].Split(new[] { ';' }, StringSplitOptions.RemoveEmptyEntries))
                        want[pair.Split('=')[0]] = pair.Split('=')[1];
                    foreach (var kv in want)
                    {
                        Assert.IsTrue(data[key].Settings.ContainsKey(kv.Key), rel + ": no " + kv.Key);
                        Assert.AreEqual(kv.Value, data[key].Settings[kv.Key], rel + ": " + kv.Key);
                    }
                    if (want.Count == 0) CollectionAssert.IsEmpty(data[key].Settings, rel);
                }
                // The ABI folder and the CPU agree (Unity's AndroidArchitecture: ARMv7 is armeabi-v7a, ARM64 arm64-v8a).
                foreach (var abi in new[] { new[] { "arm64-v8a", "ARM64" }, new[] { "armeabi-v7a", "ARMv7" } })
                    StringAssert.Contains("\n        CPU: " + abi[1] + "\n",
                        File.ReadAllText(Path.Combine(root, "Plugins/Android/libs/" + abi[0] + "/libargus.so.meta")), abi[0]);
                foreach (var folder in new[] { "Plugins/Android", "Plugins/Android/libs", "Plugins/Android/libs/arm64-v8a", "Plugins/iOS", "Plugins/WebGL" })
                    StringAssert.Contains("folderAsset: yes", File.ReadAllText(Path.Combine(root, folder + ".meta")), folder);

                // A library taken out leaves its .meta orphaned (reported by --check, removed by a rewrite).
                File.Delete(Path.Combine(root, "Plugins/iOS/libargus.a"));
                output = RunPython("\"" + script + "\" --root \"" + root + "\" --check", out code);
                Assert.AreEqual(1, code, output);
                StringAssert.Contains("orphaned Plugins/iOS/libargus.a.meta", output);
                RunPython("\"" + script + "\" --root \"" + root + "\"", out code);
                Assert.IsFalse(File.Exists(Path.Combine(root, "Plugins/iOS/libargus.a.meta")));
            }
            finally
            {
                if (Directory.Exists(root)) Directory.Delete(root, true);
            }
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
