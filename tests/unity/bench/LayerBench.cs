// What the Unity layer costs on top of the bindings: the same scene (guards, moving targets,
// walls) stepped through PerceptionWorld and its components, and through a bare Argus.World fed
// with the same poses in bulk, frame after frame in one run. Prints ms per frame of each and their
// ratio (no timing is asserted: these machines are noisy), plus managed bytes per frame. Both sides
// are timed frame by frame, interleaved; the median frame of each is printed beside the mean (a
// shared machine's load spikes move the mean more than the median).
// The world's settingsSync alternates frame by frame between EveryFrame (the default: every
// guard's and target's settings fields compared at every step) and OnChange (compared only when
// flagged; nothing is flagged here), so both modes are measured in the same time slices; each
// mode's ratio divides its median frame by the bare world's median over the same frames.
//   mono LayerBench.exe [guards] [targets] [frames per mode]
using System;
using System.Collections.Generic;
using System.Diagnostics;
using Argus;
using Argus.Perception;
using UnityEngine;
using Debug = UnityEngine.Debug;

public static class LayerBench
{
    public static int Main(string[] args)
    {
        int guards = args.Length > 0 ? int.Parse(args[0]) : 1000;
        int targets = args.Length > 1 ? int.Parse(args[1]) : 100;
        int frames = args.Length > 2 ? int.Parse(args[2]) : 300;
        const float dt = 1f / 30f;
        const float size = 300f;
        var rng = new System.Random(7);

        var worldObject = new GameObject("World");
        worldObject.SetActive(false);
        var world = worldObject.AddComponent<PerceptionWorld>();
        world.autoStep = false;
        worldObject.SetActive(true);
        var bare = new World();

        var guardTransforms = new List<Transform>();
        var guardIds = new AgentId[guards];
        for (int i = 0; i < guards; i++)
        {
            var go = new GameObject("guard");
            go.SetActive(false);
            go.transform.position = new Vector3((float)rng.NextDouble() * size, 0f, (float)rng.NextDouble() * size);
            float a = (float)(rng.NextDouble() * Math.PI * 2);
            go.transform.rotation = Quaternion.LookRotation(new Vector3(Mathf.Sin(a), 0f, Mathf.Cos(a)));
            go.AddComponent<FieldOfViewSensor>().viewRadius = 15f;
            go.AddComponent<HearingSensor>();
            go.AddComponent<PerceptionSystem>();
            go.AddComponent<PerceptionMemory>();
            go.AddComponent<EnemyBrain>().driveNavMeshAgent = false;
            go.SetActive(true);
            guardTransforms.Add(go.transform);
            AgentDef d = AgentDef.Default();
            d.Sight.ViewRadius = 15f;
            d.Position = new Vec3(go.transform.position.x, 0f, go.transform.position.z);
            Vector3 f = go.transform.forward;
            d.Forward = new Vec3(f.x, f.y, f.z);
            guardIds[i] = bare.CreateAgent(d);
        }
        var targetTransforms = new List<Transform>();
        var targetIds = new TargetId[targets];
        var centers = new Vector3[targets];
        for (int i = 0; i < targets; i++)
        {
            var go = new GameObject("target");
            centers[i] = new Vector3((float)rng.NextDouble() * size, 0f, (float)rng.NextDouble() * size);
            go.transform.position = centers[i];
            go.AddComponent<PerceptionTarget>();
            targetTransforms.Add(go.transform);
            TargetDef d = TargetDef.Default();
            d.Position = new Vec3(centers[i].x, 0f, centers[i].z);
            targetIds[i] = bare.CreateTarget(d);
        }
        for (int i = 0; i < 100; i++)
        {
            var go = new GameObject("wall");
            go.transform.position = new Vector3((float)rng.NextDouble() * size, 1.5f, (float)rng.NextDouble() * size);
            var box = go.AddComponent<BoxCollider>();
            box.size = new Vector3(8f, 3f, 0.5f);
            go.AddComponent<PerceptionOccluder>();
            bare.CreateBox(new Vec3(go.transform.position.x, 1.5f, go.transform.position.z), Quat.Identity, new Vec3(4f, 1.5f, 0.25f));
        }

        var agentPos = new Vec3[guards];
        var agentFwd = new Vec3[guards];
        var targetPos = new Vec3[targets];
        var targetFwd = new Vec3[targets];
        // [mode]: 0 = EveryFrame, 1 = OnChange; frames alternate between them.
        var modes = new[] { PerceptionWorld.SettingsSync.EveryFrame, PerceptionWorld.SettingsSync.OnChange };
        var layerTotal = new double[2];
        var directTotal = new double[2];
        var layerFrames = new[] { new double[frames], new double[frames] };
        var directFrames = new[] { new double[frames], new double[frames] };
        var measured = new int[2];
        var bytes = new long[2];
        int percepts = 0, bareEvents = 0;
        const int warmup = 30; // the first second warms up (JIT, buffers)
        for (int frame = 0; frame < 2 * frames + warmup; frame++)
        {
            bool measure = frame >= warmup;
            int mode = frame & 1;
            world.settingsSync = modes[mode];
            float t = frame * dt;
            for (int i = 0; i < targets; i++)
            {
                float phase = t * 0.5f + i;
                targetTransforms[i].position = centers[i] + new Vector3(Mathf.Cos(phase), 0f, Mathf.Sin(phase)) * 6f;
                targetTransforms[i].forward = new Vector3(-Mathf.Sin(phase), 0f, Mathf.Cos(phase));
            }

            long before = GC.GetAllocatedBytesForCurrentThread();
            long l0 = Stopwatch.GetTimestamp();
            world.Step(dt);
            long l1 = Stopwatch.GetTimestamp();
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            percepts += world.Native.Percepts.Length;

            long d0 = Stopwatch.GetTimestamp();
            for (int i = 0; i < guards; i++)
            {
                Vector3 p = guardTransforms[i].position, f = guardTransforms[i].forward;
                agentPos[i] = new Vec3(p.x, p.y, p.z);
                agentFwd[i] = new Vec3(f.x, f.y, f.z);
            }
            for (int i = 0; i < targets; i++)
            {
                Vector3 p = targetTransforms[i].position, f = targetTransforms[i].forward;
                targetPos[i] = new Vec3(p.x, p.y, p.z);
                targetFwd[i] = new Vec3(f.x, f.y, f.z);
            }
            bare.SetAgentPoses(guardIds, agentPos, agentFwd, guards);
            bare.SetTargetPoses(targetIds, targetPos, targetFwd, targets);
            bare.Step(dt);
            PerceptArray ps = bare.Percepts;
            for (int i = 0; i < ps.Length; i++) bareEvents += (int)ps[i].Kind + 1;
            BrainEventArray bs = bare.BrainEvents;
            for (int i = 0; i < bs.Length; i++) bareEvents += (int)bs[i].To;
            long d1 = Stopwatch.GetTimestamp();
            if (!measure) continue;
            int k = measured[mode]++;
            double layerMs = (l1 - l0) * 1000.0 / Stopwatch.Frequency, directMs = (d1 - d0) * 1000.0 / Stopwatch.Frequency;
            layerFrames[mode][k] = layerMs;
            directFrames[mode][k] = directMs;
            layerTotal[mode] += layerMs;
            directTotal[mode] += directMs;
            bytes[mode] += allocated;
        }
        Console.WriteLine("{0} guards, {1} targets, 100 walls, {2} frames of 1/30 s per settingsSync mode, alternating ({3} percepts through the components)", guards, targets, frames, percepts);
        var allDirect = new double[2 * frames];
        Array.Copy(directFrames[0], allDirect, frames);
        Array.Copy(directFrames[1], 0, allDirect, frames, frames);
        Array.Sort(allDirect);
        Console.WriteLine("  bare Argus.World, bulk poses: {0:F3} ms/frame, median frame {1:F3} ms",
            (directTotal[0] + directTotal[1]) / (2 * frames), allDirect[frames]);
        for (int m = 0; m < 2; m++)
        {
            Array.Sort(layerFrames[m]);
            Array.Sort(directFrames[m]);
            double layerMedian = layerFrames[m][frames / 2], directMedian = directFrames[m][frames / 2];
            Console.WriteLine("  settingsSync = {0,-10}: PerceptionWorld + components {1:F3} ms/frame (bare {2:F3}, ratio {3:F2}), {4} managed bytes/frame",
                modes[m], layerTotal[m] / frames, directTotal[m] / frames, layerTotal[m] / directTotal[m], bytes[m] / frames);
            Console.WriteLine("  settingsSync = {0,-10}: median frame {1:F3} ms against {2:F3} ms, ratio {3:F2}",
                modes[m], layerMedian, directMedian, layerMedian / directMedian);
        }
        bare.Dispose();
        return percepts > 0 ? 0 : 1;
    }
}
