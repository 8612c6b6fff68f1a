namespace Argus.Perception
{
    /// <summary>The guard's four states (§8); the values are the library's ARGUS_BRAIN_* numbers.</summary>
    public enum AIState
    {
        /// <summary>Nothing going on.</summary>
        Idle = 0,
        /// <summary>Going to look at a sound.</summary>
        Investigating = 1,
        /// <summary>Chasing a seen target.</summary>
        Chasing = 2,
        /// <summary>Searching the last known position until searchDuration runs out.</summary>
        Searching = 3,
    }
}
