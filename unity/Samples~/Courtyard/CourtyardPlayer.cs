using UnityEngine;

namespace Argus.Perception.Samples
{
    /// <summary>
    /// The demo's scripted player: sneaks (1.4 m/s, a quiet footstep every 0.7 m), runs (4.5 m/s, a
    /// loud one every 1.35 m) or waits, leg after leg, calling Footsteps.OnFootstep as an Animation
    /// Event would. Replace it with your character controller.
    /// </summary>
    [RequireComponent(typeof(Footsteps))]
    public sealed class CourtyardPlayer : MonoBehaviour
    {
        // Legs from examples/courtyard/level.rs: (kind, x, z); kind 0 sneak, 1 run, 2 wait (x = seconds).
        static readonly float[][] Legs =
        {
            new[] { 0f, 11.5f, 13f },  // south of the middle wall; G1 patrols north of it
            new[] { 2f, 5.4f, 0f },    // frozen while G1 comes to look
            new[] { 1f, 25.9f, 12.1f },// a dash east: every guard hears it, G2 sees it
            new[] { 0f, 26.3f, 13.2f },// round the end of the east wall, quietly
            new[] { 0f, 26.3f, 16.5f },
            new[] { 2f, 30f, 0f },     // hidden behind the east wall
        };

        Footsteps m_Steps;
        int m_Leg;
        float m_Waited, m_Walked;

        /// <summary>What the player is doing now: "sneaks", "runs", "waits" or "done".</summary>
        public string Doing { get; private set; }

        void Awake()
        {
            m_Steps = GetComponent<Footsteps>();
            Doing = "waits";
        }

        void Update()
        {
            if (m_Leg >= Legs.Length)
            {
                Doing = "done";
                return;
            }
            float[] leg = Legs[m_Leg];
            float dt = Time.deltaTime;
            if (leg[0] == 2f)
            {
                Doing = "waits";
                m_Waited += dt;
                if (m_Waited >= leg[1]) { m_Waited = 0f; m_Leg++; }
                return;
            }
            bool run = leg[0] == 1f;
            Doing = run ? "runs" : "sneaks";
            m_Steps.isRunning = run;
            Vector3 goal = new Vector3(leg[1], 0f, leg[2]);
            Vector3 to = goal - transform.position;
            float dist = to.magnitude;
            float step = Mathf.Min((run ? 4.5f : 1.4f) * dt, dist);
            if (dist > 1e-4f)
            {
                transform.position += to / dist * step;
                transform.rotation = Quaternion.LookRotation(to);
            }
            m_Walked += step;
            float stride = run ? 1.35f : 0.7f;
            if (m_Walked >= stride)
            {
                m_Walked -= stride;
                m_Steps.OnFootstep();
            }
            if (dist - step <= 1e-4f) m_Leg++;
        }
    }
}
