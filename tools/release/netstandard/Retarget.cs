// Rewrites an mcs-built Argus.dll (references mscorlib, System.Numerics, ...) into a netstandard2.0
// assembly: every framework type it uses is then resolved through `netstandard, Version=2.0.0.0`, as a
// .NET Standard compiler would have written it. No netstandard reference assembly can be fetched on
// this machine, and Mono's mcs cannot compile against a facade, so the IL is kept and only the
// references are moved. Run by tools/release/netstandard.sh:
//   mono Retarget.exe <netstandard 2.0 facade> <in.dll> <out.dll>
// The facade (Mono's 4.7.1-api/Facades/netstandard.dll, version 2.0.0.0) lists, as type forwarders,
// exactly the types .NET Standard 2.0 defines; a type outside that list fails the run by name, since
// the assembly would load on Mono and then break on .NET Core. Members are not checked: the facade
// lists types only (a member missing from the standard would load here and fail elsewhere).
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Mono.Cecil;

static class Retarget
{
    static AssemblyNameReference netstandard;
    static HashSet<string> standardTypes;
    static readonly SortedSet<string> missing = new SortedSet<string>();

    static int Main(string[] args)
    {
        if (args.Length != 3) { Console.Error.WriteLine("usage: Retarget.exe <netstandard facade> <in.dll> <out.dll>"); return 2; }
        var facadeAssembly = AssemblyDefinition.ReadAssembly(args[0]);
        var facade = facadeAssembly.Name;
        if (facade.Name != "netstandard" || facade.Version != new Version(2, 0, 0, 0))
            return Fail(args[0] + " is " + facade.FullName + ", not netstandard 2.0.0.0 (Mono's 4.5 facade is 2.1)");
        standardTypes = new HashSet<string>(facadeAssembly.MainModule.ExportedTypes.Select(t => t.FullName));
        netstandard = new AssemblyNameReference("netstandard", facade.Version) { PublicKeyToken = facade.PublicKeyToken };

        var asm = AssemblyDefinition.ReadAssembly(args[1], new ReaderParameters { ReadingMode = ReadingMode.Immediate, InMemory = true });
        var module = asm.MainModule;
        var framework = module.AssemblyReferences.ToList();
        foreach (var t in module.GetTypeReferences()) Move(t);
        // Attribute blobs name types as strings ("System.Single, mscorlib, ..." in [FixedBuffer], the
        // unsafe assembly's SecurityPermission): reading them here makes Cecil write them anew.
        foreach (var p in AttributeProviders(module))
            foreach (var a in p.CustomAttributes) MoveArguments(a.ConstructorArguments, a.Fields, a.Properties);
        foreach (var p in SecurityProviders(module))
            foreach (var d in p.SecurityDeclarations)
                foreach (var a in d.SecurityAttributes) { Move(a.AttributeType); MoveArguments(null, a.Fields, a.Properties); }
        if (missing.Count > 0)
            return Fail("not in .NET Standard 2.0: " + string.Join(", ", missing));
        module.AssemblyReferences.Clear();
        module.AssemblyReferences.Add(netstandard);
        SetTargetFramework(asm);
        asm.Write(args[2]);
        return Verify(args[2], framework);
    }

    static int Fail(string why) { Console.Error.WriteLine("retarget: " + why); return 1; }

    // Points a type (and what it is built from) at netstandard, or records it as missing from the standard.
    static void Move(TypeReference t)
    {
        if (t == null || t is GenericParameter) return;
        var g = t as GenericInstanceType;
        if (g != null) foreach (var a in g.GenericArguments) Move(a);
        var m = t as IModifierType;
        if (m != null) Move(m.ModifierType);
        var spec = t as TypeSpecification;
        if (spec != null) { Move(spec.ElementType); return; }
        var outer = t;
        while (outer.DeclaringType != null) outer = outer.DeclaringType;
        var scope = outer.Scope as AssemblyNameReference;
        if (scope == null || scope == netstandard) return; // this assembly's own type, or done
        if (standardTypes.Contains(t.FullName)) outer.Scope = netstandard;
        else missing.Add(t.FullName + " (from " + scope.Name + ")");
    }

    static void MoveArguments(IEnumerable<CustomAttributeArgument> ctor, IEnumerable<CustomAttributeNamedArgument> fields,
        IEnumerable<CustomAttributeNamedArgument> properties)
    {
        var all = (ctor ?? Enumerable.Empty<CustomAttributeArgument>()).Concat(fields.Concat(properties).Select(n => n.Argument));
        foreach (var a in all) MoveArgument(a);
    }

    static void MoveArgument(CustomAttributeArgument a)
    {
        Move(a.Type);
        if (a.Value is TypeReference) Move((TypeReference)a.Value);
        else if (a.Value is CustomAttributeArgument) MoveArgument((CustomAttributeArgument)a.Value); // boxed in object
        else if (a.Value is CustomAttributeArgument[]) foreach (var e in (CustomAttributeArgument[])a.Value) MoveArgument(e);
    }

    static IEnumerable<ICustomAttributeProvider> AttributeProviders(ModuleDefinition module)
    {
        yield return module.Assembly;
        yield return module;
        foreach (var t in module.GetTypes())
        {
            yield return t;
            foreach (var x in t.Interfaces) yield return x;
            foreach (var x in t.GenericParameters) yield return x;
            foreach (var x in t.Fields) yield return x;
            foreach (var x in t.Properties) yield return x;
            foreach (var x in t.Events) yield return x;
            foreach (var m in t.Methods)
            {
                yield return m;
                yield return m.MethodReturnType;
                foreach (var x in m.Parameters) yield return x;
                foreach (var x in m.GenericParameters) yield return x;
            }
        }
    }

    static IEnumerable<ISecurityDeclarationProvider> SecurityProviders(ModuleDefinition module)
    {
        yield return module.Assembly;
        foreach (var t in module.GetTypes())
        {
            yield return t;
            foreach (var m in t.Methods) yield return m;
        }
    }

    // [assembly: TargetFramework(".NETStandard,Version=v2.0", FrameworkDisplayName = "")], as the .NET SDK writes it:
    // NuGet and tools read the framework from here.
    static void SetTargetFramework(AssemblyDefinition asm)
    {
        var module = asm.MainModule;
        var type = new TypeReference("System.Runtime.Versioning", "TargetFrameworkAttribute", module, netstandard);
        if (!standardTypes.Contains(type.FullName)) { missing.Add(type.FullName); return; }
        foreach (var old in asm.CustomAttributes.Where(a => a.AttributeType.FullName == type.FullName).ToList())
            asm.CustomAttributes.Remove(old);
        var ctor = new MethodReference(".ctor", module.TypeSystem.Void, type) { HasThis = true };
        ctor.Parameters.Add(new ParameterDefinition(module.TypeSystem.String));
        var attr = new CustomAttribute(ctor);
        attr.ConstructorArguments.Add(new CustomAttributeArgument(module.TypeSystem.String, ".NETStandard,Version=v2.0"));
        attr.Properties.Add(new CustomAttributeNamedArgument("FrameworkDisplayName",
            new CustomAttributeArgument(module.TypeSystem.String, "")));
        asm.CustomAttributes.Add(attr);
    }

    // Reads the written file back: one reference (netstandard 2.0), every type reference through it or
    // to this assembly's own types, and no assembly-qualified name of a removed reference in any blob.
    static int Verify(string path, List<AssemblyNameReference> removed)
    {
        var module = ModuleDefinition.ReadModule(path);
        var refs = module.AssemblyReferences.Select(r => r.FullName).ToList();
        if (refs.Count != 1 || refs[0] != netstandard.FullName)
            return Fail(path + " references " + string.Join("; ", refs));
        foreach (var t in module.GetTypeReferences())
        {
            var outer = t;
            while (outer.DeclaringType != null) outer = outer.DeclaringType;
            if (outer.Scope is AssemblyNameReference ? outer.Scope.Name != "netstandard" : module.GetType(outer.FullName) == null)
                return Fail(path + ": " + t.FullName + " resolves through " + outer.Scope);
        }
        var text = Encoding.UTF8.GetString(File.ReadAllBytes(path));
        foreach (var r in removed)
            if (text.Contains(", " + r.Name + ", Version="))
                return Fail(path + " still names " + r.Name + " in an attribute blob");
        Console.WriteLine("retarget: " + path + " references " + refs[0] + " only (was: " +
            string.Join("; ", removed.Select(r => r.Name + " " + r.Version)) + ")");
        return 0;
    }
}
