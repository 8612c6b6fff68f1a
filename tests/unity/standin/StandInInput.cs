// STAND-IN, NOT UNITY. Test-only replacement for UnityEngine's legacy input (Input, KeyCode), the
// Input Manager's: KeyCode values are Unity's (Runtime/Export/Input/KeyCode.cs, a subset), and
// Input.GetKey/GetKeyDown/GetKeyUp are Unity's signatures (Modules/InputLegacy/Input.bindings.cs).
// As in Unity, reading Input throws InvalidOperationException when the project's Active Input
// Handling is the Input System package alone (no ENABLE_LEGACY_INPUT_MANAGER). A test presses a
// key with StandIn.Keyboard.Press(key): down during the next StandIn.Player.Frame, up after it.
using System;
using System.Collections.Generic;

namespace UnityEngine
{
    public enum KeyCode
    {
        None = 0,
        Backspace = 8,
        Tab = 9,
        Return = 13,
        Escape = 27,
        Space = 32,
        Alpha0 = 48, Alpha1 = 49, Alpha2 = 50, Alpha3 = 51, Alpha4 = 52,
        Alpha5 = 53, Alpha6 = 54, Alpha7 = 55, Alpha8 = 56, Alpha9 = 57,
        A = 97, B = 98, C = 99, D = 100, E = 101, F = 102, G = 103, H = 104, I = 105, J = 106, K = 107, L = 108,
        M = 109, N = 110, O = 111, P = 112, Q = 113, R = 114, S = 115, T = 116, U = 117, V = 118, W = 119,
        X = 120, Y = 121, Z = 122,
        Delete = 127,
        F1 = 282, F2 = 283, F3 = 284, F4 = 285, F5 = 286, F6 = 287, F7 = 288, F8 = 289, F9 = 290, F10 = 291,
        F11 = 292, F12 = 293, F13 = 294, F14 = 295, F15 = 296,
    }

    public class Input
    {
        public static bool GetKey(KeyCode key) { Check(); return StandIn.Keyboard.Held.Contains(key); }
        public static bool GetKeyDown(KeyCode key) { Check(); return StandIn.Keyboard.Down.Contains(key); }
        public static bool GetKeyUp(KeyCode key) { Check(); return false; }

        static void Check()
        {
            StandIn.Keyboard.Reads++;
#if !ENABLE_LEGACY_INPUT_MANAGER
            throw new InvalidOperationException("You are trying to read Input using the UnityEngine.Input class, but you have "
                + "switched active Input handling to Input System package in Player Settings.");
#endif
        }
    }
}

namespace StandIn
{
    using UnityEngine;

    // Not Unity: the keys a test presses.
    public static class Keyboard
    {
        internal static readonly HashSet<KeyCode> Down = new HashSet<KeyCode>();
        internal static readonly HashSet<KeyCode> Held = new HashSet<KeyCode>();
        // Input reads so far (a test of a component that must not read Input checks it stays 0).
        public static int Reads;

        // The key goes down at the next frame (GetKeyDown true during that frame only, as in Unity).
        public static void Press(KeyCode key)
        {
            Down.Add(key);
            Held.Add(key);
        }

        // The end of a frame (StandIn.Player.Frame): pressed keys are released.
        internal static void EndFrame()
        {
            Down.Clear();
            Held.Clear();
        }

        internal static void Reset()
        {
            EndFrame();
            Reads = 0;
        }
    }
}
