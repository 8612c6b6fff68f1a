using System;
using System.Text;

namespace Argus
{
    public sealed unsafe partial class World
    {
        /// <summary>A new influence map; start from <see cref="InfluenceMapDef.Default"/>.</summary>
        public InfluenceMapId CreateInfluenceMap(InfluenceMapDef def)
        {
            InfluenceMapId id;
            Check(NativeMethods.argus_influence_map_create(H, &def, &id));
            return id;
        }

        /// <summary>Removes a map.</summary>
        public void DestroyInfluenceMap(InfluenceMapId map) { ChangeInfluence(NativeMethods.argus_influence_map_destroy(H, map)); }

        /// <summary>True while the map is alive in this world.</summary>
        public bool IsValid(InfluenceMapId map) { return !_handle.IsClosed && NativeMethods.argus_influence_map_is_valid(_handle, map) != 0; }

        /// <summary>The map's grid.</summary>
        public InfluenceMapInfo GetInfluenceMapInfo(InfluenceMapId map)
        {
            InfluenceMapInfo info;
            Check(NativeMethods.argus_influence_map_get_info(H, map, &info));
            return info;
        }

        /// <summary>A layer's cells, row-major: a view valid until a call that changes any influence map
        /// (clear, add, blur, propagate, combine, normalise, decay, set, destroy) or Load; reading it later
        /// throws (ObjectDisposedException after Dispose).</summary>
        public FloatArray GetInfluenceLayer(InfluenceMapId map, uint layer)
        {
            NativeFloatArray a;
            Check(NativeMethods.argus_influence_map_get_layer(H, map, layer, &a));
            return new FloatArray(a, _influence);
        }

        /// <summary>Zeroes a layer (Constants.INFLUENCE_ALL_LAYERS for all).</summary>
        public void ClearInfluence(InfluenceMapId map, uint layer) { ChangeInfluence(NativeMethods.argus_influence_map_clear(H, map, layer)); }

        /// <summary>Names a layer (UTF-8, shorter than INFLUENCE_MAX_LAYER_NAME bytes).</summary>
        public void SetInfluenceLayerName(InfluenceMapId map, uint layer, string name)
        {
            fixed (byte* p = Utf8Z(name)) Check(NativeMethods.argus_influence_map_set_layer_name(H, map, layer, p));
        }

        /// <summary>The layer with that name, if any.</summary>
        public bool FindInfluenceLayer(InfluenceMapId map, string name, out uint layer)
        {
            uint l;
            byte found;
            fixed (byte* p = Utf8Z(name)) Check(NativeMethods.argus_influence_map_find_layer(H, map, p, &l, &found));
            layer = found != 0 ? l : 0;
            return found != 0;
        }

        /// <summary>Stamps value at position with a linear falloff over radiusCells.</summary>
        public void AddInfluence(InfluenceMapId map, uint layer, Vec3 position, float value, int radiusCells)
        {
            ChangeInfluence(NativeMethods.argus_influence_map_add_influence(H, map, layer, position, value, radiusCells));
        }

        /// <summary>Stamps the first count positions/values in order. No allocation.</summary>
        public void AddInfluences(InfluenceMapId map, uint layer, Vec3[] positions, float[] values, int count, int radiusCells)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            if (values == null) throw new ArgumentNullException("values");
            CheckLengths(count, positions.Length, values.Length, values.Length);
            fixed (Vec3* p = positions)
            fixed (float* v = values)
                ChangeInfluence(NativeMethods.argus_influence_map_add_influences(H, map, layer, p, v, (uint)count, radiusCells));
        }

        /// <summary>Box-blurs a layer passes times.</summary>
        public void BlurInfluence(InfluenceMapId map, uint layer, uint passes) { ChangeInfluence(NativeMethods.argus_influence_map_blur(H, map, layer, passes)); }

        /// <summary>One propagation pass (decay per cell, momentum, blocked cells on blockingLayers).</summary>
        public void PropagateInfluence(InfluenceMapId map, uint layer, float decay, float momentum, uint blockingLayers)
        {
            ChangeInfluence(NativeMethods.argus_influence_map_propagate(H, map, layer, decay, momentum, blockingLayers));
        }

        /// <summary>Marks cells inside occluders on blockingLayers; returns how many are blocked.</summary>
        public int UpdateInfluenceBlocking(InfluenceMapId map, uint blockingLayers)
        {
            uint n;
            ChangeInfluence(NativeMethods.argus_influence_map_update_blocking(H, map, blockingLayers, &n));
            return (int)n;
        }

        /// <summary>dest = op over the weighted layers.</summary>
        public void CombineInfluence(InfluenceMapId map, uint dest, CombineOp op, LayerWeight[] weights)
        {
            fixed (LayerWeight* w = weights)
                ChangeInfluence(NativeMethods.argus_influence_map_combine(H, map, dest, op, w, (uint)(weights == null ? 0 : weights.Length)));
        }

        /// <summary>Scales a layer to [0, 1] by its largest magnitude.</summary>
        public void NormalizeInfluence(InfluenceMapId map, uint layer) { ChangeInfluence(NativeMethods.argus_influence_map_normalize(H, map, layer)); }

        /// <summary>Multiplies a layer by keepPerSecond^dt.</summary>
        public void DecayInfluence(InfluenceMapId map, uint layer, float keepPerSecond, float dt)
        {
            ChangeInfluence(NativeMethods.argus_influence_map_decay(H, map, layer, keepPerSecond, dt));
        }

        /// <summary>Sets the cell containing position to value.</summary>
        public void SetInfluence(InfluenceMapId map, uint layer, Vec3 position, float value)
        {
            ChangeInfluence(NativeMethods.argus_influence_map_set_value(H, map, layer, position, value));
        }

        /// <summary>The value of the cell containing position.</summary>
        public float GetInfluence(InfluenceMapId map, uint layer, Vec3 position)
        {
            float v;
            Check(NativeMethods.argus_influence_map_get_value(H, map, layer, position, &v));
            return v;
        }

        /// <summary>Bilinear sample at position.</summary>
        public float SampleInfluence(InfluenceMapId map, uint layer, Vec3 position)
        {
            float v;
            Check(NativeMethods.argus_influence_map_sample(H, map, layer, position, &v));
            return v;
        }

        /// <summary>The highest (findMax) or lowest cell within radius of position, if any.</summary>
        public bool BestInfluenceCell(InfluenceMapId map, uint layer, Vec3 position, float radius, bool findMax, out CellValue cell)
        {
            CellValue c;
            byte found;
            Check(NativeMethods.argus_influence_map_best_cell(H, map, layer, position, radius, (byte)(findMax ? 1 : 0), &c, &found));
            cell = c;
            return found != 0;
        }

        /// <summary>Check for a call that may change an influence map: layer views expire when it succeeded.</summary>
        void ChangeInfluence(Result r)
        {
            if (r == Result.Ok) _influence.Bump();
            Check(r);
        }

        static byte[] Utf8Z(string s)
        {
            if (s == null) throw new ArgumentNullException("name");
            var bytes = new byte[Encoding.UTF8.GetByteCount(s) + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }
    }
}
