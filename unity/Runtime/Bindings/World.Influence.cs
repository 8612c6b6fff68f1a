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
            Check(NativeMethods.argus_influence_map_create(_handle, &def, &id));
            return id;
        }

        /// <summary>Removes a map.</summary>
        public void DestroyInfluenceMap(InfluenceMapId map) { Check(NativeMethods.argus_influence_map_destroy(_handle, map)); }

        /// <summary>True while the map is alive in this world.</summary>
        public bool IsValid(InfluenceMapId map) { return NativeMethods.argus_influence_map_is_valid(_handle, map) != 0; }

        /// <summary>The map's grid.</summary>
        public InfluenceMapInfo GetInfluenceMapInfo(InfluenceMapId map)
        {
            InfluenceMapInfo info;
            Check(NativeMethods.argus_influence_map_get_info(_handle, map, &info));
            return info;
        }

        /// <summary>A layer's cells, row-major (a view valid until the map changes or Dispose).</summary>
        public FloatArray GetInfluenceLayer(InfluenceMapId map, uint layer)
        {
            FloatArray a;
            Check(NativeMethods.argus_influence_map_get_layer(_handle, map, layer, &a));
            return a;
        }

        /// <summary>Zeroes a layer (Constants.INFLUENCE_ALL_LAYERS for all).</summary>
        public void ClearInfluence(InfluenceMapId map, uint layer) { Check(NativeMethods.argus_influence_map_clear(_handle, map, layer)); }

        /// <summary>Names a layer (UTF-8, shorter than INFLUENCE_MAX_LAYER_NAME bytes).</summary>
        public void SetInfluenceLayerName(InfluenceMapId map, uint layer, string name)
        {
            fixed (byte* p = Utf8Z(name)) Check(NativeMethods.argus_influence_map_set_layer_name(_handle, map, layer, p));
        }

        /// <summary>The layer with that name, if any.</summary>
        public bool FindInfluenceLayer(InfluenceMapId map, string name, out uint layer)
        {
            uint l;
            byte found;
            fixed (byte* p = Utf8Z(name)) Check(NativeMethods.argus_influence_map_find_layer(_handle, map, p, &l, &found));
            layer = found != 0 ? l : 0;
            return found != 0;
        }

        /// <summary>Stamps value at position with a linear falloff over radiusCells.</summary>
        public void AddInfluence(InfluenceMapId map, uint layer, Vec3 position, float value, int radiusCells)
        {
            Check(NativeMethods.argus_influence_map_add_influence(_handle, map, layer, position, value, radiusCells));
        }

        /// <summary>Stamps the first count positions/values in order. No allocation.</summary>
        public void AddInfluences(InfluenceMapId map, uint layer, Vec3[] positions, float[] values, int count, int radiusCells)
        {
            CheckLengths(count, positions.Length, values.Length, values.Length);
            fixed (Vec3* p = positions)
            fixed (float* v = values)
                Check(NativeMethods.argus_influence_map_add_influences(_handle, map, layer, p, v, (uint)count, radiusCells));
        }

        /// <summary>Box-blurs a layer passes times.</summary>
        public void BlurInfluence(InfluenceMapId map, uint layer, uint passes) { Check(NativeMethods.argus_influence_map_blur(_handle, map, layer, passes)); }

        /// <summary>One propagation pass (decay per cell, momentum, blocked cells on blockingLayers).</summary>
        public void PropagateInfluence(InfluenceMapId map, uint layer, float decay, float momentum, uint blockingLayers)
        {
            Check(NativeMethods.argus_influence_map_propagate(_handle, map, layer, decay, momentum, blockingLayers));
        }

        /// <summary>Marks cells inside occluders on blockingLayers; returns how many are blocked.</summary>
        public int UpdateInfluenceBlocking(InfluenceMapId map, uint blockingLayers)
        {
            uint n;
            Check(NativeMethods.argus_influence_map_update_blocking(_handle, map, blockingLayers, &n));
            return (int)n;
        }

        /// <summary>dest = op over the weighted layers.</summary>
        public void CombineInfluence(InfluenceMapId map, uint dest, CombineOp op, LayerWeight[] weights)
        {
            fixed (LayerWeight* w = weights)
                Check(NativeMethods.argus_influence_map_combine(_handle, map, dest, op, w, (uint)(weights == null ? 0 : weights.Length)));
        }

        /// <summary>Scales a layer to [0, 1] by its largest magnitude.</summary>
        public void NormalizeInfluence(InfluenceMapId map, uint layer) { Check(NativeMethods.argus_influence_map_normalize(_handle, map, layer)); }

        /// <summary>Multiplies a layer by keepPerSecond^dt.</summary>
        public void DecayInfluence(InfluenceMapId map, uint layer, float keepPerSecond, float dt)
        {
            Check(NativeMethods.argus_influence_map_decay(_handle, map, layer, keepPerSecond, dt));
        }

        /// <summary>Sets the cell containing position to value.</summary>
        public void SetInfluence(InfluenceMapId map, uint layer, Vec3 position, float value)
        {
            Check(NativeMethods.argus_influence_map_set_value(_handle, map, layer, position, value));
        }

        /// <summary>The value of the cell containing position.</summary>
        public float GetInfluence(InfluenceMapId map, uint layer, Vec3 position)
        {
            float v;
            Check(NativeMethods.argus_influence_map_get_value(_handle, map, layer, position, &v));
            return v;
        }

        /// <summary>Bilinear sample at position.</summary>
        public float SampleInfluence(InfluenceMapId map, uint layer, Vec3 position)
        {
            float v;
            Check(NativeMethods.argus_influence_map_sample(_handle, map, layer, position, &v));
            return v;
        }

        /// <summary>The highest (findMax) or lowest cell within radius of position, if any.</summary>
        public bool BestInfluenceCell(InfluenceMapId map, uint layer, Vec3 position, float radius, bool findMax, out CellValue cell)
        {
            CellValue c;
            byte found;
            Check(NativeMethods.argus_influence_map_best_cell(_handle, map, layer, position, radius, (byte)(findMax ? 1 : 0), &c, &found));
            cell = c;
            return found != 0;
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
