//! Built-in object types (`Texture2D`, `RWStructuredBuffer`, `SamplerState`, ...).

/// Which register class a resource binds to (`t`, `u`, `s`, `b`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResourceClass {
    /// Shader resource view, register `t`.
    Srv,
    /// Unordered access view, register `u`.
    Uav,
    /// Sampler, register `s`.
    Sampler,
    /// Constant buffer, register `b`.
    Cbv,
}

impl ResourceClass {
    pub fn register_letter(self) -> char {
        match self {
            ResourceClass::Srv => 't',
            ResourceClass::Uav => 'u',
            ResourceClass::Sampler => 's',
            ResourceClass::Cbv => 'b',
        }
    }
}

/// What a template argument of an object type may be.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TemplateShape {
    /// No template arguments.
    None,
    /// One type argument, optional with a default of `float4` (`Texture2D`, `Buffer`).
    TypeDefaultFloat4,
    /// One type argument, required (`StructuredBuffer<T>`, `ConstantBuffer<T>`, streams).
    Type,
    /// A type (default `float4`) and an optional count (`Texture2DMS<T, N>`).
    TypeAndOptionalCount,
    /// A type and a required count (`InputPatch<T, N>`).
    TypeAndCount,
    /// A count only (`RayQuery<Flags>`).
    Count,
}

macro_rules! object_kinds {
    ($($variant:ident = $name:literal, $class:expr, $shape:ident;)*) => {
        /// Every built-in object type.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ObjectKind {
            $($variant,)*
        }

        impl ObjectKind {
            pub const ALL: &'static [ObjectKind] = &[$(ObjectKind::$variant,)*];

            /// The name as written in HLSL (`vk::` types without their namespace prefix are not
            /// listed: they are spelled `vk::SubpassInput` and printed with it).
            pub fn name(self) -> &'static str {
                match self { $(ObjectKind::$variant => $name,)* }
            }

            /// The register class, `None` for objects that are not bound (streams, patches,
            /// ray queries).
            pub fn resource_class(self) -> Option<ResourceClass> {
                match self { $(ObjectKind::$variant => $class,)* }
            }

            /// The template arguments it takes.
            pub fn template_shape(self) -> TemplateShape {
                match self { $(ObjectKind::$variant => TemplateShape::$shape,)* }
            }

            /// The kind named `name` (case-sensitive, as DXC; `vk::` names with the prefix).
            pub fn from_name(name: &str) -> Option<ObjectKind> {
                match name {
                    $($name => Some(ObjectKind::$variant),)*
                    // Legacy lower-case spellings.
                    "sampler" | "sampler1D" | "sampler2D" | "sampler3D" | "samplerCUBE" => Some(ObjectKind::SamplerState),
                    "sampler_state" => Some(ObjectKind::SamplerState),
                    "SubpassInput" => Some(ObjectKind::VkSubpassInput),
                    "SubpassInputMS" => Some(ObjectKind::VkSubpassInputMS),
                    "TextureCube" => Some(ObjectKind::TextureCube),
                    "TextureCubeArray" => Some(ObjectKind::TextureCubeArray),
                    _ => None,
                }
            }
        }
    };
}

use ResourceClass::*;

object_kinds! {
    Texture1D = "Texture1D", Some(Srv), TypeDefaultFloat4;
    Texture1DArray = "Texture1DArray", Some(Srv), TypeDefaultFloat4;
    Texture2D = "Texture2D", Some(Srv), TypeDefaultFloat4;
    Texture2DArray = "Texture2DArray", Some(Srv), TypeDefaultFloat4;
    Texture2DMS = "Texture2DMS", Some(Srv), TypeAndOptionalCount;
    Texture2DMSArray = "Texture2DMSArray", Some(Srv), TypeAndOptionalCount;
    Texture3D = "Texture3D", Some(Srv), TypeDefaultFloat4;
    TextureCube = "TextureCUBE", Some(Srv), TypeDefaultFloat4;
    TextureCubeArray = "TextureCUBEArray", Some(Srv), TypeDefaultFloat4;
    Buffer = "Buffer", Some(Srv), TypeDefaultFloat4;
    RWTexture1D = "RWTexture1D", Some(Uav), TypeDefaultFloat4;
    RWTexture1DArray = "RWTexture1DArray", Some(Uav), TypeDefaultFloat4;
    RWTexture2D = "RWTexture2D", Some(Uav), TypeDefaultFloat4;
    RWTexture2DArray = "RWTexture2DArray", Some(Uav), TypeDefaultFloat4;
    RWTexture2DMS = "RWTexture2DMS", Some(Uav), TypeAndOptionalCount;
    RWTexture2DMSArray = "RWTexture2DMSArray", Some(Uav), TypeAndOptionalCount;
    RWTexture3D = "RWTexture3D", Some(Uav), TypeDefaultFloat4;
    RWBuffer = "RWBuffer", Some(Uav), TypeDefaultFloat4;
    RasterizerOrderedTexture1D = "RasterizerOrderedTexture1D", Some(Uav), TypeDefaultFloat4;
    RasterizerOrderedTexture1DArray = "RasterizerOrderedTexture1DArray", Some(Uav), TypeDefaultFloat4;
    RasterizerOrderedTexture2D = "RasterizerOrderedTexture2D", Some(Uav), TypeDefaultFloat4;
    RasterizerOrderedTexture2DArray = "RasterizerOrderedTexture2DArray", Some(Uav), TypeDefaultFloat4;
    RasterizerOrderedTexture3D = "RasterizerOrderedTexture3D", Some(Uav), TypeDefaultFloat4;
    RasterizerOrderedBuffer = "RasterizerOrderedBuffer", Some(Uav), TypeDefaultFloat4;
    StructuredBuffer = "StructuredBuffer", Some(Srv), Type;
    RWStructuredBuffer = "RWStructuredBuffer", Some(Uav), Type;
    AppendStructuredBuffer = "AppendStructuredBuffer", Some(Uav), Type;
    ConsumeStructuredBuffer = "ConsumeStructuredBuffer", Some(Uav), Type;
    RasterizerOrderedStructuredBuffer = "RasterizerOrderedStructuredBuffer", Some(Uav), Type;
    ByteAddressBuffer = "ByteAddressBuffer", Some(Srv), None;
    RWByteAddressBuffer = "RWByteAddressBuffer", Some(Uav), None;
    RasterizerOrderedByteAddressBuffer = "RasterizerOrderedByteAddressBuffer", Some(Uav), None;
    FeedbackTexture2D = "FeedbackTexture2D", Some(Uav), Count;
    FeedbackTexture2DArray = "FeedbackTexture2DArray", Some(Uav), Count;
    SamplerState = "SamplerState", Some(Sampler), None;
    SamplerComparisonState = "SamplerComparisonState", Some(Sampler), None;
    ConstantBuffer = "ConstantBuffer", Some(Cbv), Type;
    TextureBuffer = "TextureBuffer", Some(Srv), Type;
    InputPatch = "InputPatch", None, TypeAndCount;
    OutputPatch = "OutputPatch", None, TypeAndCount;
    PointStream = "PointStream", None, Type;
    LineStream = "LineStream", None, Type;
    TriangleStream = "TriangleStream", None, Type;
    RaytracingAccelerationStructure = "RaytracingAccelerationStructure", Some(Srv), None;
    RayQuery = "RayQuery", None, Count;
    VkSubpassInput = "vk::SubpassInput", Some(Srv), TypeDefaultFloat4;
    VkSubpassInputMS = "vk::SubpassInputMS", Some(Srv), TypeDefaultFloat4;
    VkSpirvType = "vk::SpirvType", None, None;
    VkSpirvOpaqueType = "vk::SpirvOpaqueType", None, None;
    VkBufferPointer = "vk::BufferPointer", None, TypeAndOptionalCount;
    VkSampledTexture1D = "vk::SampledTexture1D", Some(Srv), TypeDefaultFloat4;
    VkSampledTexture1DArray = "vk::SampledTexture1DArray", Some(Srv), TypeDefaultFloat4;
    VkSampledTexture2D = "vk::SampledTexture2D", Some(Srv), TypeDefaultFloat4;
    VkSampledTexture2DArray = "vk::SampledTexture2DArray", Some(Srv), TypeDefaultFloat4;
    VkSampledTexture2DMS = "vk::SampledTexture2DMS", Some(Srv), TypeAndOptionalCount;
    VkSampledTexture2DMSArray = "vk::SampledTexture2DMSArray", Some(Srv), TypeAndOptionalCount;
    VkSampledTexture3D = "vk::SampledTexture3D", Some(Srv), TypeDefaultFloat4;
    VkSampledTextureCube = "vk::SampledTextureCUBE", Some(Srv), TypeDefaultFloat4;
    VkSampledTextureCubeArray = "vk::SampledTextureCUBEArray", Some(Srv), TypeDefaultFloat4;
    DispatchNodeInputRecord = "DispatchNodeInputRecord", None, Type;
    RWDispatchNodeInputRecord = "RWDispatchNodeInputRecord", None, Type;
    GroupNodeInputRecords = "GroupNodeInputRecords", None, Type;
    RWGroupNodeInputRecords = "RWGroupNodeInputRecords", None, Type;
    ThreadNodeInputRecord = "ThreadNodeInputRecord", None, Type;
    RWThreadNodeInputRecord = "RWThreadNodeInputRecord", None, Type;
    EmptyNodeInput = "EmptyNodeInput", None, None;
    NodeOutput = "NodeOutput", None, Type;
    NodeOutputArray = "NodeOutputArray", None, Type;
    EmptyNodeOutput = "EmptyNodeOutput", None, None;
    EmptyNodeOutputArray = "EmptyNodeOutputArray", None, None;
    ThreadNodeOutputRecords = "ThreadNodeOutputRecords", None, Type;
    GroupNodeOutputRecords = "GroupNodeOutputRecords", None, Type;
    DxHitObject = "dx::HitObject", None, None;
    // The placeholder type of `ResourceDescriptorHeap[i]` / `SamplerDescriptorHeap[i]` (DXC's
    // `.Resource` / `.Sampler`): converts to the resource type its use asks for (see
    // `check/heap.rs`); no declaration can name it.
    ResourceHeapElement = ".Resource", None, None;
    SamplerHeapElement = ".Sampler", None, None;
}

impl ObjectKind {
    /// Texture-like objects that are read with `Load`/`Sample` and indexed with `[]`.
    pub fn is_texture(self) -> bool {
        use ObjectKind::*;
        matches!(
            self,
            Texture1D
                | Texture1DArray
                | Texture2D
                | Texture2DArray
                | Texture2DMS
                | Texture2DMSArray
                | Texture3D
                | TextureCube
                | TextureCubeArray
                | RWTexture1D
                | RWTexture1DArray
                | RWTexture2D
                | RWTexture2DArray
                | RWTexture2DMS
                | RWTexture2DMSArray
                | RWTexture3D
                | RasterizerOrderedTexture1D
                | RasterizerOrderedTexture1DArray
                | RasterizerOrderedTexture2D
                | RasterizerOrderedTexture2DArray
                | RasterizerOrderedTexture3D
                | VkSampledTexture1D
                | VkSampledTexture1DArray
                | VkSampledTexture2D
                | VkSampledTexture2DArray
                | VkSampledTexture2DMS
                | VkSampledTexture2DMSArray
                | VkSampledTexture3D
                | VkSampledTextureCube
                | VkSampledTextureCubeArray
        )
    }

    /// Work-graph record objects whose records are read (and maybe written) with `Get()` and
    /// `[]`: node inputs and the output records of `Get*NodeOutputRecords`.
    pub fn is_node_record(self) -> bool {
        use ObjectKind::*;
        matches!(
            self,
            DispatchNodeInputRecord
                | RWDispatchNodeInputRecord
                | GroupNodeInputRecords
                | RWGroupNodeInputRecords
                | ThreadNodeInputRecord
                | RWThreadNodeInputRecord
                | ThreadNodeOutputRecords
                | GroupNodeOutputRecords
        )
    }

    /// Node records whose contents may be written (`RW*` inputs and output records).
    pub fn is_writable_record(self) -> bool {
        use ObjectKind::*;
        matches!(
            self,
            RWDispatchNodeInputRecord | RWGroupNodeInputRecords | RWThreadNodeInputRecord | ThreadNodeOutputRecords | GroupNodeOutputRecords
        )
    }

    /// Writable resources (UAVs).
    pub fn is_writable(self) -> bool {
        self.resource_class() == Some(ResourceClass::Uav)
    }

    /// The number of coordinates used to index the object with `[]`, and whether it can be
    /// indexed at all (`None`): `Texture2D` → 2, `Texture2DArray` → 3, buffers → 1.
    pub fn index_dims(self) -> Option<u8> {
        use ObjectKind::*;
        Some(match self {
            Buffer | RWBuffer | RasterizerOrderedBuffer | StructuredBuffer | RWStructuredBuffer
            | RasterizerOrderedStructuredBuffer | Texture1D | RWTexture1D | RasterizerOrderedTexture1D
            | InputPatch | OutputPatch | VkSampledTexture1D => 1,
            Texture1DArray | RWTexture1DArray | RasterizerOrderedTexture1DArray | Texture2D | RWTexture2D
            | RasterizerOrderedTexture2D | Texture2DMS | RWTexture2DMS | VkSampledTexture2D | VkSampledTexture1DArray
            | VkSampledTexture2DMS => 2,
            Texture2DArray | RWTexture2DArray | RasterizerOrderedTexture2DArray | Texture2DMSArray
            | RWTexture2DMSArray | Texture3D | RWTexture3D | RasterizerOrderedTexture3D | VkSampledTexture2DArray
            | VkSampledTexture2DMSArray | VkSampledTexture3D => 3,
            _ => return None,
        })
    }

    /// The namespace of `gen_intrin_main.txt` that lists this object's methods.
    pub fn method_namespace(self) -> Option<&'static str> {
        use ObjectKind::*;
        Some(match self {
            Texture1D => "Texture1DMethods",
            Texture1DArray => "Texture1DArrayMethods",
            Texture2D => "Texture2DMethods",
            Texture2DArray => "Texture2DArrayMethods",
            Texture2DMS => "Texture2DMSMethods",
            Texture2DMSArray => "Texture2DArrayMSMethods",
            Texture3D => "Texture3DMethods",
            TextureCube => "TextureCUBEMethods",
            TextureCubeArray => "TextureCUBEArrayMethods",
            Buffer => "BufferMethods",
            RWTexture1D | RasterizerOrderedTexture1D => "RWTexture1DMethods",
            RWTexture1DArray | RasterizerOrderedTexture1DArray => "RWTexture1DArrayMethods",
            RWTexture2D | RasterizerOrderedTexture2D => "RWTexture2DMethods",
            RWTexture2DArray | RasterizerOrderedTexture2DArray => "RWTexture2DArrayMethods",
            RWTexture2DMS => "RWTexture2DMSMethods",
            RWTexture2DMSArray => "RWTexture2DMSArrayMethods",
            RWTexture3D | RasterizerOrderedTexture3D => "RWTexture3DMethods",
            RWBuffer | RasterizerOrderedBuffer => "RWBufferMethods",
            ByteAddressBuffer => "ByteAddressBufferMethods",
            RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer => "RWByteAddressBufferMethods",
            StructuredBuffer => "StructuredBufferMethods",
            RWStructuredBuffer | RasterizerOrderedStructuredBuffer => "RWStructuredBufferMethods",
            AppendStructuredBuffer => "AppendStructuredBufferMethods",
            ConsumeStructuredBuffer => "ConsumeStructuredBufferMethods",
            FeedbackTexture2D => "FeedbackTexture2DMethods",
            FeedbackTexture2DArray => "FeedbackTexture2DArrayMethods",
            PointStream | LineStream | TriangleStream => "StreamMethods",
            RayQuery => "RayQueryMethods",
            VkSubpassInput => "VkSubpassInputMethods",
            VkSubpassInputMS => "VkSubpassInputMSMethods",
            VkSampledTexture1D => "VkSampledTexture1DMethods",
            VkSampledTexture1DArray => "VkSampledTexture1DArrayMethods",
            VkSampledTexture2D => "VkSampledTexture2DMethods",
            VkSampledTexture2DArray => "VkSampledTexture2DArrayMethods",
            VkSampledTexture2DMS => "VkSampledTexture2DMSMethods",
            VkSampledTexture2DMSArray => "VkSampledTexture2DMSArrayMethods",
            VkSampledTexture3D => "VkSampledTexture3DMethods",
            VkSampledTextureCube => "VkSampledTextureCUBEMethods",
            VkSampledTextureCubeArray => "VkSampledTextureCUBEArrayMethods",
            EmptyNodeInput => "EmptyNodeInputMethods",
            RWDispatchNodeInputRecord => "RWDispatchNodeInputRecordMethods",
            GroupNodeInputRecords | RWGroupNodeInputRecords => "GroupNodeInputRecordsMethods",
            NodeOutput => "NodeOutputMethods",
            EmptyNodeOutput => "EmptyNodeOutputMethods",
            ThreadNodeOutputRecords | GroupNodeOutputRecords => "GroupOrThreadNodeOutputRecordsMethods",
            DxHitObject => "DxHitObjectMethods",
            VkBufferPointer => "BufferPointerMethods",
            _ => return None,
        })
    }
}
