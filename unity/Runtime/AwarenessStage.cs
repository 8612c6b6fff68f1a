namespace Argus.Perception
{
    /// <summary>Stages of a guard's awareness meter (beyond the lesson; FieldOfViewSensor.useAwareness).</summary>
    public enum AwarenessStage
    {
        /// <summary>Below the suspicious threshold.</summary>
        Unaware = 0,
        /// <summary>Something caught the eye.</summary>
        Suspicious = 1,
        /// <summary>Looking hard.</summary>
        Alert = 2,
        /// <summary>Sure: the brain chases.</summary>
        Aware = 3,
    }
}
