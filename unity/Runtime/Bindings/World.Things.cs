using System;

namespace Argus
{
    public sealed unsafe partial class World
    {
        // ---- agents ------------------------------------------------------------------------------------------

        /// <summary>A new agent; start from <see cref="AgentDef.Default"/>. The library copies the def.</summary>
        public AgentId CreateAgent(AgentDef def)
        {
            AgentId id;
            Check(NativeMethods.argus_agent_create(H, &def, &id));
            return id;
        }

        /// <summary>Removes an agent; its id becomes stale.</summary>
        public void DestroyAgent(AgentId agent) { Check(NativeMethods.argus_agent_destroy(H, agent)); }

        /// <summary>True while the agent is alive in this world (false once the world is disposed).</summary>
        public bool IsValid(AgentId agent) { return !_handle.IsClosed && NativeMethods.argus_agent_is_valid(_handle, agent) != 0; }

        /// <summary>Replaces an agent's settings (its memory and brain state are kept).</summary>
        public void SetAgentDef(AgentId agent, AgentDef def) { Check(NativeMethods.argus_agent_set_def(H, agent, &def)); }

        /// <summary>An agent's current settings.</summary>
        public AgentDef GetAgentDef(AgentId agent)
        {
            AgentDef def;
            Check(NativeMethods.argus_agent_get_def(H, agent, &def));
            return def;
        }

        /// <summary>Moves one agent (forward need not be normalised, must not be zero).</summary>
        public void SetAgentPose(AgentId agent, Vec3 position, Vec3 forward)
        {
            Check(NativeMethods.argus_agent_set_pose(H, agent, position, forward));
        }

        /// <summary>Moves the first count agents of the arrays in one call (all or nothing). No allocation.
        /// forwards null keeps each agent's facing. A refused entry throws ArgusException naming its index.</summary>
        public void SetAgentPoses(AgentId[] agents, Vec3[] positions, Vec3[] forwards, int count)
        {
            CheckPoseArrays(agents, "agents", positions, forwards, count);
            Result r;
            fixed (AgentId* a = agents)
            fixed (Vec3* p = positions)
            fixed (Vec3* f = forwards)
                r = NativeMethods.argus_agent_set_poses(H, a, p, f, (uint)count);
            if (r != Result.Ok) FailBatch(r, agents, null, positions, forwards, count);
            Check(r);
        }

        /// <summary>Position, eye, brain state, focus and move target of an agent.</summary>
        public AgentState GetAgentState(AgentId agent)
        {
            AgentState s;
            Check(NativeMethods.argus_agent_get_state(H, agent, &s));
            return s;
        }

        /// <summary>Every live agent's state in slot order, copied into buffer (grown when too small; reuse
        /// it to avoid allocating); returns the number of agents.</summary>
        public int GetAgentStates(ref AgentStateEntry[] buffer)
        {
            if (buffer == null) buffer = new AgentStateEntry[Math.Max(1, (int)Counts.Agents)];
            while (true)
            {
                uint n;
                Result r;
                fixed (AgentStateEntry* p = buffer)
                    r = NativeMethods.argus_world_get_agent_states(H, p, (uint)buffer.Length, &n);
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    return (int)n;
                }
                buffer = new AgentStateEntry[n];
            }
        }

        /// <summary>Tells the brain the agent reached its move target.</summary>
        public void ReportArrived(AgentId agent) { Check(NativeMethods.argus_agent_report_arrived(H, agent)); }

        /// <summary>Copies the agent's memory into buffer (grown when too small; reuse it to avoid
        /// allocating); returns the number of records.</summary>
        public int GetMemory(AgentId agent, ref MemoryRecord[] buffer)
        {
            if (buffer == null) buffer = new MemoryRecord[8];
            while (true)
            {
                uint n;
                Result r;
                fixed (MemoryRecord* p = buffer)
                    r = NativeMethods.argus_agent_get_memory(H, agent, p, (uint)buffer.Length, &n);
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    return (int)n;
                }
                buffer = new MemoryRecord[n];
            }
        }

        /// <summary>Plants (or refreshes) a memory of target at position with the given confidence.</summary>
        public void Remember(AgentId agent, TargetId target, Vec3 position, float confidence)
        {
            Check(NativeMethods.argus_agent_remember(H, agent, target, position, confidence));
        }

        /// <summary>Drops the agent's memory of target.</summary>
        public void Forget(AgentId agent, TargetId target) { Check(NativeMethods.argus_agent_forget(H, agent, target)); }

        /// <summary>Whether the agent sees the target now, with every check point's status.</summary>
        public SightResult CanSee(AgentId agent, TargetId target)
        {
            SightResult s;
            Check(NativeMethods.argus_agent_can_see(H, agent, target, &s));
            return s;
        }

        /// <summary>Copies every target the agent can see now (id and UserData) into buffer (grown when too
        /// small; reuse it to avoid allocating); returns the count.</summary>
        public int GetVisibleTargets(AgentId agent, ref TargetRef[] buffer)
        {
            if (buffer == null) buffer = new TargetRef[8];
            while (true)
            {
                uint n;
                Result r;
                fixed (TargetRef* p = buffer)
                    r = NativeMethods.argus_agent_get_visible_targets(H, agent, p, (uint)buffer.Length, &n);
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    return (int)n;
                }
                buffer = new TargetRef[n];
            }
        }

        // ---- targets -----------------------------------------------------------------------------------------

        /// <summary>A new target; start from <see cref="TargetDef.Default"/>.</summary>
        public TargetId CreateTarget(TargetDef def)
        {
            TargetId id;
            Check(NativeMethods.argus_target_create(H, &def, &id));
            return id;
        }

        /// <summary>Removes a target; its id becomes stale and agents forget it.</summary>
        public void DestroyTarget(TargetId target) { Check(NativeMethods.argus_target_destroy(H, target)); }

        /// <summary>True while the target is alive in this world (false once the world is disposed).</summary>
        public bool IsValid(TargetId target) { return !_handle.IsClosed && NativeMethods.argus_target_is_valid(_handle, target) != 0; }

        /// <summary>Replaces a target's settings.</summary>
        public void SetTargetDef(TargetId target, TargetDef def) { Check(NativeMethods.argus_target_set_def(H, target, &def)); }

        /// <summary>A target's current settings.</summary>
        public TargetDef GetTargetDef(TargetId target)
        {
            TargetDef def;
            Check(NativeMethods.argus_target_get_def(H, target, &def));
            return def;
        }

        /// <summary>Moves one target.</summary>
        public void SetTargetPose(TargetId target, Vec3 position, Vec3 forward)
        {
            Check(NativeMethods.argus_target_set_pose(H, target, position, forward));
        }

        /// <summary>Moves the first count targets of the arrays in one call (all or nothing). No allocation.
        /// forwards null keeps each target's facing. A refused entry throws ArgusException naming its index.</summary>
        public void SetTargetPoses(TargetId[] targets, Vec3[] positions, Vec3[] forwards, int count)
        {
            CheckPoseArrays(targets, "targets", positions, forwards, count);
            Result r;
            fixed (TargetId* t = targets)
            fixed (Vec3* p = positions)
            fixed (Vec3* f = forwards)
                r = NativeMethods.argus_target_set_poses(H, t, p, f, (uint)count);
            if (r != Result.Ok) FailBatch(r, null, targets, positions, forwards, count);
            Check(r);
        }

        /// <summary>A disabled target is invisible and silent but keeps its id.</summary>
        public void SetTargetEnabled(TargetId target, bool enabled)
        {
            Check(NativeMethods.argus_target_set_enabled(H, target, (byte)(enabled ? 1 : 0)));
        }

        // ---- occluders ---------------------------------------------------------------------------------------

        /// <summary>A new occluder; start from <see cref="OccluderDef.Default"/> (box, sphere, capsule; for a
        /// mesh use the overload with vertices).</summary>
        public OccluderId CreateOccluder(OccluderDef def)
        {
            OccluderId id;
            def.Vertices = null;
            def.Indices = null;
            def.VertexCount = 0;
            def.IndexCount = 0;
            Check(NativeMethods.argus_occluder_create(H, &def, &id));
            return id;
        }

        /// <summary>A triangle-mesh occluder (def.Shape = ShapeKind.Mesh); the library copies the arrays.</summary>
        public OccluderId CreateOccluder(OccluderDef def, Vec3[] vertices, uint[] indices)
        {
            if (vertices == null) throw new ArgumentNullException("vertices");
            if (indices == null) throw new ArgumentNullException("indices");
            OccluderId id;
            fixed (Vec3* v = vertices)
            fixed (uint* i = indices)
            {
                def.Vertices = v;
                def.VertexCount = (uint)(vertices == null ? 0 : vertices.Length);
                def.Indices = i;
                def.IndexCount = (uint)(indices == null ? 0 : indices.Length);
                Check(NativeMethods.argus_occluder_create(H, &def, &id));
            }
            return id;
        }

        /// <summary>A box occluder (half extents in metres) on the default layers.</summary>
        public OccluderId CreateBox(Vec3 position, Quat rotation, Vec3 halfExtents)
        {
            OccluderDef def = OccluderDef.Default();
            def.Shape = ShapeKind.Box;
            def.Position = position;
            def.Rotation = rotation;
            def.HalfExtents = halfExtents;
            return CreateOccluder(def);
        }

        /// <summary>The UserData the occluder was created with.</summary>
        public ulong GetOccluderUserData(OccluderId occluder)
        {
            ulong u;
            Check(NativeMethods.argus_occluder_get_user_data(H, occluder, &u));
            return u;
        }

        /// <summary>Removes an occluder.</summary>
        public void DestroyOccluder(OccluderId occluder) { Check(NativeMethods.argus_occluder_destroy(H, occluder)); }

        /// <summary>True while the occluder is alive in this world (false once the world is disposed).</summary>
        public bool IsValid(OccluderId occluder) { return !_handle.IsClosed && NativeMethods.argus_occluder_is_valid(_handle, occluder) != 0; }

        /// <summary>Moves a movable occluder.</summary>
        public void SetOccluderPose(OccluderId occluder, Vec3 position, Quat rotation)
        {
            Check(NativeMethods.argus_occluder_set_pose(H, occluder, position, rotation));
        }

        /// <summary>Changes which layers an occluder is on (sight and hearing masks test them).</summary>
        public void SetOccluderLayers(OccluderId occluder, uint layers)
        {
            Check(NativeMethods.argus_occluder_set_layers(H, occluder, layers));
        }

        static void CheckLengths(int count, int a, int b, int c)
        {
            if (count < 0 || count > a || count > b || count > c)
                throw new ArgumentOutOfRangeException("count", "count exceeds an array's length");
        }

        static void CheckPoseArrays(Array ids, string idsName, Vec3[] positions, Vec3[] forwards, int count)
        {
            if (ids == null) throw new ArgumentNullException(idsName);
            if (positions == null) throw new ArgumentNullException("positions");
            if (count < 0 || count > ids.Length || count > positions.Length || forwards != null && count > forwards.Length)
                throw new ArgumentOutOfRangeException("count", "count exceeds an array's length");
        }

        /// <summary>A bulk pose call was refused: finds the first entry at fault and throws naming its index
        /// (the library checks every entry before moving any, so nothing moved).</summary>
        void FailBatch(Result r, AgentId[] agents, TargetId[] targets, Vec3[] positions, Vec3[] forwards, int count)
        {
            if (_rayState != null && _rayState.Error != null) return;
            string name = agents != null ? "agents" : "targets";
            string at = null;
            for (int i = 0; i < count && at == null; i++)
            {
                bool valid = agents != null
                    ? NativeMethods.argus_agent_is_valid(_handle, agents[i]) != 0
                    : NativeMethods.argus_target_is_valid(_handle, targets[i]) != 0;
                if (!valid)
                    at = name + "[" + i + "] (" + (agents != null ? agents[i].ToString() : targets[i].ToString()) + ") is not alive in this world";
                else if (!Finite(positions[i]))
                    at = "positions[" + i + "] " + positions[i] + " is not finite";
                else if (forwards != null && (!Finite(forwards[i]) || forwards[i].X == 0 && forwards[i].Y == 0 && forwards[i].Z == 0))
                    at = "forwards[" + i + "] " + forwards[i] + " is not a finite non-zero direction";
            }
            if (at == null) return; // not an entry's fault (e.g. count beyond the live things): the library's message
            string code = Library.Utf8(NativeMethods.argus_result_name((uint)r));
            string detail = Library.Utf8(NativeMethods.argus_last_error());
            throw new ArgusException(r, code + ": " + at + (detail.Length > 0 ? " (" + detail + ")" : ""), IndexIn(at));
        }

        static int IndexIn(string at)
        {
            int open = at.IndexOf('['), close = at.IndexOf(']');
            return int.Parse(at.Substring(open + 1, close - open - 1));
        }

        static bool Finite(Vec3 v)
        {
            return !float.IsNaN(v.X) && !float.IsInfinity(v.X) && !float.IsNaN(v.Y) && !float.IsInfinity(v.Y) &&
                   !float.IsNaN(v.Z) && !float.IsInfinity(v.Z);
        }
    }
}
