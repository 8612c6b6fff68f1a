using System;

namespace Argus
{
    /// <summary>How long one kind of view the world hands out lives: the world bumps <see cref="Value"/>
    /// when a call ends their life (a step for the events, FinishStep for the rays, ...) and marks it
    /// disposed with the world. A view remembers the value it was made at and compares on every read.</summary>
    public sealed class ViewEpoch
    {
        internal int Value;
        bool _disposed;
        readonly string _what;

        internal ViewEpoch(string what)
        {
            _what = what;
        }

        /// <summary>Ends the life of every view of this kind handed out so far.</summary>
        internal void Bump()
        {
            Value++;
        }

        /// <summary>The world was disposed: every view of this kind throws ObjectDisposedException.</summary>
        internal void Dispose()
        {
            _disposed = true;
            Value++;
        }

        /// <summary>Throws what reading an expired view of this kind throws (kept out of the inlined checks).</summary>
        internal void Throw()
        {
            if (_disposed)
                throw new ObjectDisposedException("Argus.World", "Argus.World was disposed: " + _what + " read from it are freed.");
            throw new InvalidOperationException("This view of " + _what + " expired: " + Lifetime() + ". Copy what you keep (CopyTo).");
        }

        string Lifetime()
        {
            switch (_what)
            {
                case "events": return "event arrays are valid until the world's next Step, BeginStep, FinishStep or Load";
                case "step rays": return "BeginStep's rays are valid until FinishStep, CancelStep, the next BeginStep or Load";
                case "callback rays": return "the rays and hits of IRayCaster.CastRays are valid only during the call";
                case "tactical rays": return "a tactical query's rays are valid until it finishes, is cancelled or another begins";
                case "debug draw": return "a debug draw is valid until the next DebugDraw, Step or Load";
                default: return "an influence layer is valid until any influence map changes, is destroyed, or Load";
            }
        }
    }

    /// <summary>What <see cref="World.DebugDraw"/> returns: lines and points over the world's arrays, checked
    /// on every read (valid until the next DebugDraw, Step or Load; ObjectDisposedException after Dispose).</summary>
    public unsafe struct DebugDrawView
    {
        readonly DebugDraw _draw;
        readonly ViewEpoch _epoch;
        readonly int _stamp;

        internal DebugDrawView(DebugDraw draw, ViewEpoch epoch)
        {
            _draw = draw;
            _epoch = epoch;
            _stamp = epoch.Value;
        }

        /// <summary>False once the view expired (or for a default view).</summary>
        public bool IsValid { get { return _epoch != null && _epoch.Value == _stamp; } }

        /// <summary>Number of lines.</summary>
        public int LineCount
        {
            get
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                return (int)_draw.LineCount;
            }
        }

        /// <summary>Number of points.</summary>
        public int PointCount
        {
            get
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                return (int)_draw.PointCount;
            }
        }

        /// <summary>Line i (bounds-checked copy).</summary>
        public DebugLine Line(int i)
        {
            if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
            if ((uint)i >= _draw.LineCount) throw new IndexOutOfRangeException();
            return _draw.Lines[i];
        }

        /// <summary>Point i (bounds-checked copy).</summary>
        public DebugPoint Point(int i)
        {
            if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
            if ((uint)i >= _draw.PointCount) throw new IndexOutOfRangeException();
            return _draw.Points[i];
        }

        /// <summary>foreach over the lines (a struct enumerable: no allocation).</summary>
        public LineEnumerable Lines
        {
            get
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                return new LineEnumerable(this);
            }
        }

        /// <summary>foreach over the points (a struct enumerable: no allocation).</summary>
        public PointEnumerable Points
        {
            get
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                return new PointEnumerable(this);
            }
        }

        /// <summary>The lines of a debug draw, for foreach.</summary>
        public struct LineEnumerable
        {
            readonly DebugDrawView _view;
            int _i;

            internal LineEnumerable(DebugDrawView view)
            {
                _view = view;
                _i = -1;
            }

            /// <summary>Itself: foreach (var line in draw.Lines).</summary>
            public LineEnumerable GetEnumerator() { return this; }

            /// <summary>Advances; throws once the view expired.</summary>
            public bool MoveNext() { return ++_i < _view.LineCount; }

            /// <summary>The current line (a copy).</summary>
            public DebugLine Current { get { return _view._draw.Lines[_i]; } }
        }

        /// <summary>The points of a debug draw, for foreach.</summary>
        public struct PointEnumerable
        {
            readonly DebugDrawView _view;
            int _i;

            internal PointEnumerable(DebugDrawView view)
            {
                _view = view;
                _i = -1;
            }

            /// <summary>Itself: foreach (var point in draw.Points).</summary>
            public PointEnumerable GetEnumerator() { return this; }

            /// <summary>Advances; throws once the view expired.</summary>
            public bool MoveNext() { return ++_i < _view.PointCount; }

            /// <summary>The current point (a copy).</summary>
            public DebugPoint Current { get { return _view._draw.Points[_i]; } }
        }
    }
}
