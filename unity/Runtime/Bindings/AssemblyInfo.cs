// The assembly's version: stamped from the one in Cargo.toml by tools/version.py --stamp (checked by a test).
using System.Reflection;

[assembly: AssemblyTitle("Argus")]
[assembly: AssemblyDescription("Game-AI perception: C# bindings over the Argus native library")]
[assembly: AssemblyVersion("0.1.0.0")]
[assembly: AssemblyInformationalVersion("0.1.0")]
