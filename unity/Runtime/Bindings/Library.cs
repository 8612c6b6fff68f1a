using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Argus
{
    /// <summary>The native library: version, live world count, and the ABI check every entry point runs once.</summary>
    public static unsafe class Library
    {
        static bool _checked;

        /// <summary>The ABI version these bindings were generated for (ARGUS_ABI_VERSION of argus.h).</summary>
        public const uint ExpectedAbiVersion = Constants.ABI_VERSION;

        /// <summary>The loaded library's version string, e.g. "0.1.0".</summary>
        public static string Version
        {
            get
            {
                EnsureLoaded();
                return Utf8(NativeMethods.argus_version_string());
            }
        }

        /// <summary>The loaded library's version packed as major &lt;&lt; 16 | minor &lt;&lt; 8 | patch (argus_version()).</summary>
        public static uint VersionNumber
        {
            get
            {
                EnsureLoaded();
                return NativeMethods.argus_version();
            }
        }

        /// <summary>Worlds created and not yet destroyed in this process (all threads).</summary>
        public static uint LiveWorldCount
        {
            get
            {
                EnsureLoaded();
                return NativeMethods.argus_live_world_count();
            }
        }

        /// <summary>Loads the library and checks its ABI version against the bindings' (once).
        /// Throws DllNotFoundException with search hints, or InvalidOperationException naming both versions.</summary>
        public static void EnsureLoaded()
        {
            if (_checked) return;
            uint found;
            try
            {
                found = NativeMethods.argus_abi_version();
            }
            catch (DllNotFoundException e)
            {
                throw new DllNotFoundException(
                    "The Argus native library '" + NativeMethods.Library + "' was not found (libargus.so on Linux, " +
                    "libargus.dylib on macOS, argus.dll on Windows). Install it with the bindings: Unity: add the " +
                    "package from its tarball com.argus.perception-<version>.tgz, whose Plugins/<platform>/ hold it " +
                    "(a git checkout of the repository holds none); .NET and Mono: the Argus NuGet package carries " +
                    "it in runtimes/<rid>/native/ (on Mono or .NET Framework copy that file next to the " +
                    "executable); otherwise take it from the C SDK argus-sdk-<version>-<platform> or build it with " +
                    "`cargo build --release`. It is searched next to the executable and on LD_LIBRARY_PATH / " +
                    "DYLD_LIBRARY_PATH / PATH. " + e.Message, e);
            }
            if (found != ExpectedAbiVersion)
                throw new InvalidOperationException(MismatchMessage(LoadedPath(), Utf8(NativeMethods.argus_version_string()), found));
            _checked = true;
        }

        /// <summary>What an ABI mismatch says: the library found (path, version, ABI) and the one expected.</summary>
        public static string MismatchMessage(string foundPath, string foundVersion, uint foundAbi)
        {
            return string.Format(
                "Argus ABI mismatch: the native library found ({0}, version {1}, ABI {2}) is not the one these " +
                "bindings were generated for (version {3}.{4}.{5}, ABI {6}). Rebuild the library from the same " +
                "checkout as the bindings, or regenerate the bindings (bindings/csharp/generate.py).",
                foundPath, foundVersion, foundAbi, Constants.VERSION_MAJOR, Constants.VERSION_MINOR,
                Constants.VERSION_PATCH, ExpectedAbiVersion);
        }

        /// <summary>Where the library was loaded from, when the platform can say (Linux /proc/self/maps).</summary>
        public static string LoadedPath()
        {
            try
            {
                if (File.Exists("/proc/self/maps"))
                    foreach (var line in File.ReadAllLines("/proc/self/maps"))
                    {
                        int slash = line.IndexOf('/');
                        if (slash >= 0 && line.IndexOf("argus", slash, StringComparison.Ordinal) >= 0 &&
                            line.EndsWith(".so", StringComparison.Ordinal))
                            return line.Substring(slash);
                    }
            }
            catch (Exception)
            {
                // Best effort only: the message still names the library by its load name.
            }
            return "'" + NativeMethods.Library + "'";
        }

        /// <summary>A NUL-terminated UTF-8 string owned by the library.</summary>
        internal static string Utf8(byte* p)
        {
            if (p == null) return "";
            int n = 0;
            while (p[n] != 0) n++;
            return System.Text.Encoding.UTF8.GetString(p, n);
        }

        /// <summary>The library's name for a result code, e.g. "ARGUS_RESULT_INVALID_ID".</summary>
        public static string ResultName(Result code)
        {
            EnsureLoaded();
            return Utf8(NativeMethods.argus_result_name((uint)code));
        }
    }
}
