// Prints what an assembly says of its targeting, one fact a line, for tests/release/netstandard_check.sh:
//   reference: <full name>                     one line per assembly reference
//   target-framework: <name> display=<FrameworkDisplayName or "-">
// Read through reflection rather than monodis, whose custom-attribute dump prints a string argument
// with the blob's next byte appended.
using System;
using System.Reflection;

static class Describe
{
    static int Main(string[] args)
    {
        Assembly asm = Assembly.LoadFrom(args[0]);
        foreach (AssemblyName r in asm.GetReferencedAssemblies())
            Console.WriteLine("reference: " + r.FullName);
        foreach (CustomAttributeData a in asm.GetCustomAttributesData())
        {
            if (a.AttributeType.FullName != "System.Runtime.Versioning.TargetFrameworkAttribute") continue;
            string display = "-";
            foreach (CustomAttributeNamedArgument n in a.NamedArguments)
                if (n.MemberName == "FrameworkDisplayName") display = "\"" + n.TypedValue.Value + "\"";
            Console.WriteLine("target-framework: " + a.ConstructorArguments[0].Value + " display=" + display);
        }
        return 0;
    }
}
