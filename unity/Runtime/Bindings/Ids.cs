using System;

namespace Argus
{
    // Value semantics for the generated id and vector mirrors. Ids are plain values: zero is null,
    // a stale id is refused by the world (ArgusException with Result.InvalidId), never dereferenced.

    public partial struct AgentId : IEquatable<AgentId>
    {
        /// <summary>True for the null id (what a default AgentId holds).</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0; } }
        /// <summary>Same slot and generation.</summary>
        public bool Equals(AgentId o) { return Index == o.Index && Generation == o.Generation; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is AgentId && Equals((AgentId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + Generation); }
        /// <summary>Equality.</summary>
        public static bool operator ==(AgentId a, AgentId b) { return a.Equals(b); }
        /// <summary>Inequality.</summary>
        public static bool operator !=(AgentId a, AgentId b) { return !a.Equals(b); }
        /// <inheritdoc/>
        public override string ToString() { return "Agent(" + Index + "v" + Generation + ")"; }
    }

    public partial struct TargetId : IEquatable<TargetId>
    {
        /// <summary>True for the null id (what a default TargetId holds).</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0; } }
        /// <summary>Same slot and generation.</summary>
        public bool Equals(TargetId o) { return Index == o.Index && Generation == o.Generation; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is TargetId && Equals((TargetId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + Generation); }
        /// <summary>Equality.</summary>
        public static bool operator ==(TargetId a, TargetId b) { return a.Equals(b); }
        /// <summary>Inequality.</summary>
        public static bool operator !=(TargetId a, TargetId b) { return !a.Equals(b); }
        /// <inheritdoc/>
        public override string ToString() { return "Target(" + Index + "v" + Generation + ")"; }
    }

    public partial struct OccluderId : IEquatable<OccluderId>
    {
        /// <summary>True for the null id.</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0; } }
        /// <summary>Same slot and generation.</summary>
        public bool Equals(OccluderId o) { return Index == o.Index && Generation == o.Generation; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is OccluderId && Equals((OccluderId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + Generation); }
        /// <inheritdoc/>
        public override string ToString() { return "Occluder(" + Index + "v" + Generation + ")"; }
    }

    public partial struct InfluenceMapId : IEquatable<InfluenceMapId>
    {
        /// <summary>True for the null id.</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0; } }
        /// <summary>Same slot and generation.</summary>
        public bool Equals(InfluenceMapId o) { return Index == o.Index && Generation == o.Generation; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is InfluenceMapId && Equals((InfluenceMapId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + Generation); }
        /// <inheritdoc/>
        public override string ToString() { return "InfluenceMap(" + Index + "v" + Generation + ")"; }
    }

    public partial struct Vec3
    {
        /// <summary>A vector in metres, +Y up.</summary>
        public Vec3(float x, float y, float z) { X = x; Y = y; Z = z; }
        /// <inheritdoc/>
        public override string ToString() { return "(" + X + ", " + Y + ", " + Z + ")"; }
    }

    public partial struct Quat
    {
        /// <summary>A rotation quaternion (x, y, z, w), as Unity and Godot store it.</summary>
        public Quat(float x, float y, float z, float w) { X = x; Y = y; Z = z; W = w; }
        /// <summary>No rotation.</summary>
        public static Quat Identity { get { return new Quat(0, 0, 0, 1); } }
        /// <summary>A rotation of `radians` about +Y.</summary>
        public static Quat FromRotationY(float radians)
        {
            return new Quat(0, (float)Math.Sin(radians / 2), 0, (float)Math.Cos(radians / 2));
        }
    }
}
