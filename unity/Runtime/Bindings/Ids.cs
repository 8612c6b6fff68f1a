using System;

namespace Argus
{
    // Value semantics for the generated id and vector mirrors. Ids are plain values: zero is null,
    // a stale id is refused by the world (ArgusException with Result.InvalidId), never dereferenced.

    public partial struct AgentId : IEquatable<AgentId>
    {
        /// <summary>True for the null id (what a default AgentId holds).</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0 && World == 0; } }
        /// <summary>The same slot in the world tagged <paramref name="tag"/> (World.Tag): reuses an id saved from another world after Load.</summary>
        public AgentId WithWorld(ushort tag)
        {
            AgentId id = this;
            id.World = tag;
            return id;
        }
        /// <summary>Same world, slot and generation.</summary>
        public bool Equals(AgentId o) { return Index == o.Index && Generation == o.Generation && World == o.World; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is AgentId && Equals((AgentId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + ((uint)Generation << 16 | World)); }
        /// <summary>Equality.</summary>
        public static bool operator ==(AgentId a, AgentId b) { return a.Equals(b); }
        /// <summary>Inequality.</summary>
        public static bool operator !=(AgentId a, AgentId b) { return !a.Equals(b); }
        /// <inheritdoc/>
        public override string ToString() { return "Agent(" + Index + "v" + Generation + "@" + World + ")"; }
    }

    public partial struct TargetId : IEquatable<TargetId>
    {
        /// <summary>True for the null id (what a default TargetId holds).</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0 && World == 0; } }
        /// <summary>The same slot in the world tagged <paramref name="tag"/> (World.Tag): reuses an id saved from another world after Load.</summary>
        public TargetId WithWorld(ushort tag)
        {
            TargetId id = this;
            id.World = tag;
            return id;
        }
        /// <summary>Same world, slot and generation.</summary>
        public bool Equals(TargetId o) { return Index == o.Index && Generation == o.Generation && World == o.World; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is TargetId && Equals((TargetId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + ((uint)Generation << 16 | World)); }
        /// <summary>Equality.</summary>
        public static bool operator ==(TargetId a, TargetId b) { return a.Equals(b); }
        /// <summary>Inequality.</summary>
        public static bool operator !=(TargetId a, TargetId b) { return !a.Equals(b); }
        /// <inheritdoc/>
        public override string ToString() { return "Target(" + Index + "v" + Generation + "@" + World + ")"; }
    }

    public partial struct OccluderId : IEquatable<OccluderId>
    {
        /// <summary>True for the null id.</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0 && World == 0; } }
        /// <summary>The same slot in the world tagged <paramref name="tag"/> (World.Tag): reuses an id saved from another world after Load.</summary>
        public OccluderId WithWorld(ushort tag)
        {
            OccluderId id = this;
            id.World = tag;
            return id;
        }
        /// <summary>Same world, slot and generation.</summary>
        public bool Equals(OccluderId o) { return Index == o.Index && Generation == o.Generation && World == o.World; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is OccluderId && Equals((OccluderId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + ((uint)Generation << 16 | World)); }
        /// <inheritdoc/>
        public override string ToString() { return "Occluder(" + Index + "v" + Generation + "@" + World + ")"; }
    }

    public partial struct InfluenceMapId : IEquatable<InfluenceMapId>
    {
        /// <summary>True for the null id.</summary>
        public bool IsNull { get { return Index == 0 && Generation == 0 && World == 0; } }
        /// <summary>The same slot in the world tagged <paramref name="tag"/> (World.Tag): reuses an id saved from another world after Load.</summary>
        public InfluenceMapId WithWorld(ushort tag)
        {
            InfluenceMapId id = this;
            id.World = tag;
            return id;
        }
        /// <summary>Same world, slot and generation.</summary>
        public bool Equals(InfluenceMapId o) { return Index == o.Index && Generation == o.Generation && World == o.World; }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is InfluenceMapId && Equals((InfluenceMapId)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)(Index * 31 + ((uint)Generation << 16 | World)); }
        /// <inheritdoc/>
        public override string ToString() { return "InfluenceMap(" + Index + "v" + Generation + "@" + World + ")"; }
    }

    public unsafe partial struct TargetDef
    {
        /// <summary>Check point i's offset from the position (i &lt; MAX_CHECK_POINTS; set CheckPointCount too).</summary>
        public void SetCheckPoint(int i, Vec3 offset)
        {
            if ((uint)i >= Constants.MAX_CHECK_POINTS) throw new ArgumentOutOfRangeException("i");
            fixed (float* p = CheckPointOffsets)
            {
                p[3 * i] = offset.X;
                p[3 * i + 1] = offset.Y;
                p[3 * i + 2] = offset.Z;
            }
        }

        /// <summary>Check point i's offset from the position.</summary>
        public Vec3 GetCheckPoint(int i)
        {
            if ((uint)i >= Constants.MAX_CHECK_POINTS) throw new ArgumentOutOfRangeException("i");
            fixed (float* p = CheckPointOffsets) return new Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        }

        /// <summary>Sets the check points (1 to MAX_CHECK_POINTS offsets) and their count.</summary>
        public void SetCheckPoints(params Vec3[] offsets)
        {
            if (offsets == null) throw new ArgumentNullException("offsets");
            if (offsets.Length < 1 || offsets.Length > Constants.MAX_CHECK_POINTS)
                throw new ArgumentOutOfRangeException("offsets");
            for (int i = 0; i < offsets.Length; i++) SetCheckPoint(i, offsets[i]);
            CheckPointCount = (uint)offsets.Length;
        }
    }

    public unsafe partial struct SightResult
    {
        /// <summary>What happened to check point i (i &lt; PointCount).</summary>
        public Argus.PointStatus Status(int i)
        {
            if ((uint)i >= PointCount) throw new IndexOutOfRangeException();
            fixed (uint* p = PointStatus) return (Argus.PointStatus)p[i];
        }

        /// <summary>Check point i in world space.</summary>
        public Vec3 Point(int i)
        {
            if ((uint)i >= PointCount) throw new IndexOutOfRangeException();
            fixed (float* p = PointPositions) return new Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        }

        /// <summary>Where the ray to check point i hit an occluder (meaningful when Status(i) is Blocked).</summary>
        public Vec3 Hit(int i)
        {
            if ((uint)i >= PointCount) throw new IndexOutOfRangeException();
            fixed (float* p = PointHits) return new Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        }
    }

    public partial struct PerceptEvent
    {
        /// <summary>True for a sound percept (Kind is PerceptKind.Sound).</summary>
        public bool IsSound { get { return Kind == PerceptKind.Sound; } }

        /// <summary>A sound percept's sound: its index among the sounds emitted (World.EmitSound) since the
        /// previous step, 0 for the first, so two sounds at one spot stay apart; -1 for a sight percept.</summary>
        public int Sound { get { return SoundIndex == Constants.NO_SOUND ? -1 : (int)SoundIndex; } }

        /// <summary>A sound percept's source's UserData (the SoundDef's source target's); 0 for an anonymous
        /// sound or a sight percept.</summary>
        public ulong SourceUserData { get { return IsSound ? TargetUserData : 0; } }
    }

    public partial struct Vec3 : IEquatable<Vec3>
    {
        /// <summary>A vector in metres, +Y up.</summary>
        public Vec3(float x, float y, float z) { X = x; Y = y; Z = z; }
        /// <summary>(0, 0, 0).</summary>
        public static Vec3 Zero { get { return new Vec3(0, 0, 0); } }
        /// <summary>(0, 1, 0): up.</summary>
        public static Vec3 Up { get { return new Vec3(0, 1, 0); } }
        /// <summary>(0, 0, 1): the default forward.</summary>
        public static Vec3 Forward { get { return new Vec3(0, 0, 1); } }
        /// <summary>Sum.</summary>
        public static Vec3 operator +(Vec3 a, Vec3 b) { return new Vec3(a.X + b.X, a.Y + b.Y, a.Z + b.Z); }
        /// <summary>Difference.</summary>
        public static Vec3 operator -(Vec3 a, Vec3 b) { return new Vec3(a.X - b.X, a.Y - b.Y, a.Z - b.Z); }
        /// <summary>Negation.</summary>
        public static Vec3 operator -(Vec3 a) { return new Vec3(-a.X, -a.Y, -a.Z); }
        /// <summary>Scaling.</summary>
        public static Vec3 operator *(Vec3 a, float s) { return new Vec3(a.X * s, a.Y * s, a.Z * s); }
        /// <summary>Scaling.</summary>
        public static Vec3 operator *(float s, Vec3 a) { return new Vec3(a.X * s, a.Y * s, a.Z * s); }
        /// <summary>Division by a scalar.</summary>
        public static Vec3 operator /(Vec3 a, float s) { return new Vec3(a.X / s, a.Y / s, a.Z / s); }
        /// <summary>Exact component-wise equality.</summary>
        public static bool operator ==(Vec3 a, Vec3 b) { return a.X == b.X && a.Y == b.Y && a.Z == b.Z; }
        /// <summary>Inequality.</summary>
        public static bool operator !=(Vec3 a, Vec3 b) { return !(a == b); }
        /// <summary>Exact component-wise equality.</summary>
        public bool Equals(Vec3 o) { return X.Equals(o.X) && Y.Equals(o.Y) && Z.Equals(o.Z); }
        /// <inheritdoc/>
        public override bool Equals(object o) { return o is Vec3 && Equals((Vec3)o); }
        /// <inheritdoc/>
        public override int GetHashCode() { return X.GetHashCode() * 31 * 31 + Y.GetHashCode() * 31 + Z.GetHashCode(); }
        /// <summary>Dot product.</summary>
        public static float Dot(Vec3 a, Vec3 b) { return a.X * b.X + a.Y * b.Y + a.Z * b.Z; }
        /// <summary>Cross product.</summary>
        public static Vec3 Cross(Vec3 a, Vec3 b)
        {
            return new Vec3(a.Y * b.Z - a.Z * b.Y, a.Z * b.X - a.X * b.Z, a.X * b.Y - a.Y * b.X);
        }
        /// <summary>Distance between two points.</summary>
        public static float Distance(Vec3 a, Vec3 b) { return (a - b).Length; }
        /// <summary>Euclidean length.</summary>
        public float Length { get { return (float)Math.Sqrt(X * X + Y * Y + Z * Z); } }
        /// <summary>Squared length.</summary>
        public float LengthSquared { get { return X * X + Y * Y + Z * Z; } }
        /// <summary>This direction with length 1 (zero stays zero).</summary>
        public Vec3 Normalized
        {
            get
            {
                float l = Length;
                return l > 0 ? this / l : this;
            }
        }
        /// <inheritdoc/>
        public override string ToString() { return "(" + X + ", " + Y + ", " + Z + ")"; }
    }

    public partial struct Quat
    {
        /// <summary>A rotation quaternion (x, y, z, w), as Unity and Godot store it.</summary>
        public Quat(float x, float y, float z, float w) { X = x; Y = y; Z = z; W = w; }
        /// <summary>No rotation.</summary>
        public static Quat Identity { get { return new Quat(0, 0, 0, 1); } }
        /// <summary>A rotation of <paramref name="radians"/> about +Y.</summary>
        public static Quat FromRotationY(float radians)
        {
            return new Quat(0, (float)Math.Sin(radians / 2), 0, (float)Math.Cos(radians / 2));
        }
    }
}
