#!/usr/bin/env python3
"""Writes (or checks) the Unity .meta file of every file and folder of the package.

    python3 unity/Tools~/metas.py          write missing or outdated .meta files
    python3 unity/Tools~/metas.py --check  exit 1 if any .meta is missing, orphaned or different
    python3 unity/Tools~/metas.py --root DIR   the same on a copy of the package (tools/release.sh)

GUIDs are derived from the package name and the path (md5), so they are stable across machines
and runs, and unique per path. Folders ending in '~' are hidden from Unity and get no .meta;
Samples~ contents do (a sample is imported with its .meta files so references survive), while
Documentation~ and Tools~ contents do not. Native plugins get their PluginImporter settings
from PLUGINS below: Linux x86_64, Windows x86_64 and macOS (Editor and player), Android arm64-v8a
and armeabi-v7a, iOS arm64 and WebGL (players only; iOS and WebGL link a static libargus.a into
the player, which the bindings import as "__Internal"). Their binaries are built
(unity/build-plugin.sh, tools/release.sh), never committed, and a plugin's .meta exists only beside
its library: Unity warns on every refresh about a .meta whose asset is missing, so a meta without
its library is reported as orphaned.
"""
import hashlib
import os
import sys

PACKAGE = "com.argus.perception"
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
if "--root" in sys.argv:
    ROOT = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
NO_META_TREES = ("Documentation~", "Tools~")

# path -> (editor OS or None, editor CPU or None, [(platform group, platform name, settings)]).
# None for the editor: the Editor never loads the library (Exclude Editor: 1, Editor entry disabled).
# Every player not listed is excluded ("Exclude <BuildPipeline.GetBuildTargetName>: 1" on Any).
# Names are Unity's: the group is BuildPipeline.GetBuildTargetGroupName ("iPhone" for iOS), the
# platform BuildPipeline.GetBuildTargetName. Android's CPU is an AndroidArchitecture name (ARM64 is
# arm64-v8a, ARMv7 armeabi-v7a), in the libs/<ABI>/ folder Unity's own examples use;
# AndroidSharedLibraryType (AndroidPluginImporterUtilities in Unity 6's scripting reference) marks
# the library as code, not symbols; that 2021.3 and 2022.3 ignore the key is assumed, not checked. The iOS and WebGL archives are linked into the player, not loaded:
# AddToEmbeddedBinaries is for dynamic frameworks, so false.
ANDROID_SO = {"AndroidSharedLibraryType": "Executable"}
PLUGINS = {
    "Plugins/Linux/x86_64/libargus.so": ("Linux", "x86_64", [("Standalone", "Linux64", {"CPU": "x86_64"})]),
    "Plugins/Windows/x86_64/argus.dll": ("Windows", "x86_64", [("Standalone", "Win64", {"CPU": "x86_64"})]),
    "Plugins/macOS/libargus.dylib": ("OSX", "AnyCPU", [("Standalone", "OSXUniversal", {"CPU": "AnyCPU"})]),
    "Plugins/Android/libs/arm64-v8a/libargus.so": (None, None, [("Android", "Android", dict(ANDROID_SO, CPU="ARM64"))]),
    "Plugins/Android/libs/armeabi-v7a/libargus.so": (None, None, [("Android", "Android", dict(ANDROID_SO, CPU="ARMv7"))]),
    "Plugins/iOS/libargus.a": (None, None, [("iPhone", "iOS", {"AddToEmbeddedBinaries": "false", "CPU": "ARM64",
                                                               "CompileFlags": "", "FrameworkDependencies": ""})]),
    "Plugins/WebGL/libargus.a": (None, None, [("WebGL", "WebGL", {})]),
}
# The platforms shipped: Windows, macOS and Linux desktop (Editor and player); Android, iOS and WebGL
# players. The Runtime asmdef's includePlatforms and NativeMethods.Library ("__Internal" where the
# library here is a static .a) agree with this table (tests/unity/PackageTests.cs checks the three
# together); a new platform is added to all three in one change.
# The players every plugin's "Any" entry includes or excludes (BuildPipeline.GetBuildTargetName).
EXCLUDE_PLAYERS = ("Android", "Linux64", "OSXUniversal", "WebGL", "Win", "Win64", "iOS")


def guid(rel):
    return hashlib.md5((PACKAGE + "/" + rel).encode("utf-8")).hexdigest()


TAIL = "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"


def folder_meta(rel):
    return "fileFormatVersion: 2\nguid: %s\nfolderAsset: yes\nDefaultImporter:\n  externalObjects: {}\n%s" % (
        guid(rel), TAIL)


def plugin_meta(rel):
    editor_os, editor_cpu, players = PLUGINS[rel]
    enabled_players = {name for _, name, _ in players}
    out = ["fileFormatVersion: 2", "guid: " + guid(rel), "PluginImporter:", "  externalObjects: {}",
           "  serializedVersion: 2", "  iconMap: {}", "  executionOrder: {}", "  defineConstraints: []",
           "  isPreloaded: 0", "  isOverridable: 0", "  isExplicitlyReferenced: 0", "  validateReferences: 1",
           "  platformData:", "  - first:", "      : Any", "    second:", "      enabled: 0", "      settings:"]
    excluded = {name: name not in enabled_players for name in EXCLUDE_PLAYERS}
    excluded["Editor"] = not editor_os
    out += ["        Exclude %s: %d" % (name, excluded[name]) for name in sorted(excluded)]
    out += ["  - first:", "      Any: ", "    second:", "      enabled: 0", "      settings: {}"]
    # Not for the Editor: Unity's defaults (EditorPluginImporterExtension: AnyCPU, AnyOS), disabled.
    out += ["  - first:", "      Editor: Editor", "    second:", "      enabled: %d" % (1 if editor_os else 0),
            "      settings:", "        CPU: %s" % (editor_cpu or "AnyCPU"), "        DefaultValueInitialized: true",
            "        OS: %s" % (editor_os or "AnyOS")]
    for group, name, settings in players:
        out += ["  - first:", "      %s: %s" % (group, name), "    second:", "      enabled: 1"]
        if settings:
            out.append("      settings:")
            out += ["        %s: %s" % (k, v) for k, v in sorted(settings.items())]
        else:
            out.append("      settings: {}")
    return "\n".join(out) + "\n" + TAIL


def file_meta(rel):
    if rel in PLUGINS:
        return plugin_meta(rel)
    g = guid(rel)
    ext = os.path.splitext(rel)[1]
    if ext == ".cs":
        return ("fileFormatVersion: 2\nguid: %s\nMonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n"
                "  defaultReferences: []\n  executionOrder: 0\n  icon: {instanceID: 0}\n%s") % (g, TAIL)
    if rel == "package.json":
        # What Unity writes for a package manifest (TextScriptImporter would make it a TextAsset).
        return "fileFormatVersion: 2\nguid: %s\nPackageManifestImporter:\n  externalObjects: {}\n%s" % (g, TAIL)
    if ext in (".asmdef", ".asmref"):
        return "fileFormatVersion: 2\nguid: %s\nAssemblyDefinitionImporter:\n  externalObjects: {}\n%s" % (g, TAIL)
    if ext in (".md", ".json", ".txt"):
        return "fileFormatVersion: 2\nguid: %s\nTextScriptImporter:\n  externalObjects: {}\n%s" % (g, TAIL)
    return "fileFormatVersion: 2\nguid: %s\nDefaultImporter:\n  externalObjects: {}\n%s" % (g, TAIL)


def expected():
    """Every .meta the package should have: path of the .meta -> its text."""
    want = {}
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel_dir = os.path.relpath(dirpath, ROOT).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        if rel_dir.split("/")[0] in NO_META_TREES:
            dirnames[:] = []
            continue
        dirnames.sort()
        for d in dirnames:
            rel = (rel_dir + "/" + d).lstrip("/")
            if not d.endswith("~") and not d.startswith("."):
                want[rel + ".meta"] = folder_meta(rel)
        for f in sorted(filenames):
            rel = (rel_dir + "/" + f).lstrip("/")
            if f.endswith(".meta") or f.startswith("."):
                continue
            want[rel + ".meta"] = file_meta(rel)
    return want


def present():
    have = set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel_dir = os.path.relpath(dirpath, ROOT).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        for f in filenames:
            if f.endswith(".meta"):
                have.add((rel_dir + "/" + f).lstrip("/"))
    return have


def main():
    check = "--check" in sys.argv
    want = expected()
    have = present()
    problems = []
    for rel, text in sorted(want.items()):
        path = os.path.join(ROOT, rel)
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current == text:
            continue
        if check:
            problems.append(("missing " if current is None else "different ") + rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    for rel in sorted(have - set(want)):
        if check:
            problems.append("orphaned " + rel)
        else:
            os.remove(os.path.join(ROOT, rel))
    for p in problems:
        print(p)
    if check:
        print("%d .meta files expected, %d problems" % (len(want), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
