//! Running one compute dispatch on a Vulkan device with host-visible buffers (ash, libvulkan
//! loaded at run time).

use super::spec::{Buffer, Kind};
use ash::vk;

/// What a dispatch sets besides buffers.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Push-constant data from offset 0 (words).
    pub push: Vec<u32>,
    /// Specialization constants: (SpecId, value).
    pub specialize: Vec<(u32, u32)>,
    /// Device addresses written into `push`: (index of the low word, index of the buffer).
    pub addresses: Vec<(usize, usize)>,
}

/// An instance, a device and its compute queue. Prefers a GPU to a CPU implementation (such as
/// lavapipe); `HLSLC_EXEC_DEVICE` picks the first device whose name contains its value.
pub struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    queue_family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    /// `bufferDeviceAddress` is enabled (Vulkan 1.2 devices that have it).
    device_address: bool,
    /// The device's name and type, for reports.
    pub description: String,
}

fn vk_err(what: &str) -> impl Fn(vk::Result) -> String + '_ {
    move |e| format!("{what}: {e:?}")
}

impl Gpu {
    /// Opens the loader and a device; `Err` says why there is none.
    pub fn new() -> Result<Gpu, String> {
        // SAFETY: loading libvulkan runs its initialisers; it is the system's Vulkan loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().application_name(c"hlslc-exec").api_version(vk::API_VERSION_1_2);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: the create info and what it points to live across the call.
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(vk_err("vkCreateInstance"))?;
        match Self::open_device(&instance) {
            Ok((device, queue_family, memory, description, device_address)) => {
                // SAFETY: the family was created with one queue.
                let queue = unsafe { device.get_device_queue(queue_family, 0) };
                Ok(Gpu { _entry: entry, instance, device, queue, queue_family, memory, device_address, description })
            }
            Err(e) => {
                // SAFETY: nothing was created from the instance.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    #[allow(clippy::type_complexity)]
    fn open_device(instance: &ash::Instance) -> Result<(ash::Device, u32, vk::PhysicalDeviceMemoryProperties, String, bool), String> {
        // SAFETY: plain queries on a live instance.
        let phys = unsafe { instance.enumerate_physical_devices() }.map_err(vk_err("vkEnumeratePhysicalDevices"))?;
        let wanted = std::env::var("HLSLC_EXEC_DEVICE").ok();
        let mut candidates = Vec::new();
        for p in phys {
            // SAFETY: `p` comes from this instance.
            let props = unsafe { instance.get_physical_device_properties(p) };
            let name = props.device_name_as_c_str().unwrap_or(c"?").to_string_lossy().into_owned();
            // SAFETY: as above.
            let families = unsafe { instance.get_physical_device_queue_family_properties(p) };
            let Some(family) = families.iter().position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE)) else { continue };
            let rank = match props.device_type {
                vk::PhysicalDeviceType::DISCRETE_GPU => 0,
                vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
                vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
                vk::PhysicalDeviceType::CPU => 3,
                _ => 4,
            };
            if wanted.as_deref().is_some_and(|w| !name.contains(w)) {
                continue;
            }
            candidates.push((rank, p, family as u32, format!("{name} ({:?})", props.device_type), props.api_version));
        }
        candidates.sort_by_key(|c| c.0);
        let Some((_, p, family, description, api)) = candidates.into_iter().next() else {
            return Err("no Vulkan device with a compute queue".into());
        };
        // Buffer device addresses (`push address` in a spec) and scalar block layout (dxil-spirv
        // declares a structured buffer of stride 12 as an array of 3-vectors, which needs it)
        // where the device has them.
        let (device_address, scalar_layout) = if vk::api_version_major(api) > 1 || vk::api_version_minor(api) >= 2 {
            let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
            let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut v12);
            // SAFETY: plain query on a 1.2 device of this instance.
            unsafe { instance.get_physical_device_features2(p, &mut f2) };
            (v12.buffer_device_address == vk::TRUE, v12.scalar_block_layout == vk::TRUE)
        } else {
            (false, false)
        };
        let prio = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&prio)];
        let mut enable12 =
            vk::PhysicalDeviceVulkan12Features::default().buffer_device_address(device_address).scalar_block_layout(scalar_layout);
        let mut info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
        if device_address || scalar_layout {
            info = info.push_next(&mut enable12);
        }
        // SAFETY: `p` is a device of this instance; the infos live across the call.
        let device = unsafe { instance.create_device(p, &info, None) }.map_err(vk_err("vkCreateDevice"))?;
        // SAFETY: plain query.
        let memory = unsafe { instance.get_physical_device_memory_properties(p) };
        Ok((device, family, memory, description, device_address))
    }

    fn memory_type(&self, bits: u32, flags: vk::MemoryPropertyFlags) -> Option<u32> {
        (0..self.memory.memory_type_count)
            .find(|&i| bits & (1 << i) != 0 && self.memory.memory_types[i as usize].property_flags.contains(flags))
    }

    /// Runs `spirv` (entry point `main`) once with `buffers` bound, dispatching `groups`; returns
    /// every buffer's contents afterwards, in the order of `buffers`.
    pub fn dispatch(&self, spirv: &[u32], buffers: &[Buffer], groups: [u32; 3]) -> Result<Vec<Vec<u32>>, String> {
        self.dispatch_ext(spirv, buffers, groups, &Extras::default())
    }

    /// [`Gpu::dispatch`] with push constants and specialization constants.
    pub fn dispatch_ext(&self, spirv: &[u32], buffers: &[Buffer], groups: [u32; 3], extras: &Extras) -> Result<Vec<Vec<u32>>, String> {
        let mut res = Resources { device: Some(&self.device), ..Default::default() };
        let r = self.dispatch_with(&mut res, spirv, buffers, groups, extras);
        res.destroy();
        r
    }

    fn dispatch_with(&self, res: &mut Resources<'_>, spirv: &[u32], buffers: &[Buffer], groups: [u32; 3], extras: &Extras) -> Result<Vec<Vec<u32>>, String> {
        let d = &self.device;
        if !extras.addresses.is_empty() && !self.device_address {
            return Err("the device has no bufferDeviceAddress (Vulkan 1.2)".into());
        }
        let mut push = extras.push.clone();
        // Buffers, host visible and coherent, filled with their initial data.
        for (bi, b) in buffers.iter().enumerate() {
            let bytes = (b.words.len() * 4).div_ceil(16) * 16;
            let addressed = extras.addresses.iter().any(|&(_, i)| i == bi);
            let mut usage = match b.kind {
                Kind::Storage => vk::BufferUsageFlags::STORAGE_BUFFER,
                Kind::Uniform => vk::BufferUsageFlags::UNIFORM_BUFFER,
            };
            if addressed {
                usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
            }
            let info = vk::BufferCreateInfo::default().size(bytes as u64).usage(usage).sharing_mode(vk::SharingMode::EXCLUSIVE);
            // SAFETY (this block): objects are created on a live device, recorded in `res` before
            // anything else can fail, and the mapping covers exactly the allocation.
            unsafe {
                let buf = d.create_buffer(&info, None).map_err(vk_err("vkCreateBuffer"))?;
                res.buffers.push(buf);
                let req = d.get_buffer_memory_requirements(buf);
                let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
                let ty = self.memory_type(req.memory_type_bits, host).ok_or("no host-visible coherent memory")?;
                let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
                let mut alloc = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty);
                if addressed {
                    alloc = alloc.push_next(&mut flags);
                }
                let mem = d.allocate_memory(&alloc, None).map_err(vk_err("vkAllocateMemory"))?;
                res.memories.push((mem, b.words.len()));
                d.bind_buffer_memory(buf, mem, 0).map_err(vk_err("vkBindBufferMemory"))?;
                if addressed {
                    let a = d.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buf));
                    for &(word, _) in extras.addresses.iter().filter(|&&(_, i)| i == bi) {
                        push[word] = a as u32;
                        push[word + 1] = (a >> 32) as u32;
                    }
                }
                let ptr = d.map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).map_err(vk_err("vkMapMemory"))?;
                std::ptr::write_bytes(ptr as *mut u8, 0, req.size as usize);
                std::ptr::copy_nonoverlapping(b.words.as_ptr(), ptr as *mut u32, b.words.len());
                d.unmap_memory(mem);
            }
        }
        // One descriptor set layout per set number up to the highest used.
        let max_set = buffers.iter().map(|b| b.set).max().unwrap_or(0);
        if max_set > 7 {
            return Err("set numbers above 7 are not supported".into());
        }
        // Buffers that share a set and binding are the elements of one descriptor array, in
        // the order of the spec.
        let element = |i: usize| buffers[..i].iter().filter(|o| (o.set, o.binding) == (buffers[i].set, buffers[i].binding)).count() as u32;
        for set in 0..=max_set {
            let mut bindings: Vec<vk::DescriptorSetLayoutBinding> = Vec::new();
            for b in buffers.iter().filter(|b| b.set == set) {
                if let Some(l) = bindings.iter_mut().find(|l| l.binding == b.binding) {
                    if l.descriptor_type != descriptor_type(b.kind) {
                        return Err(format!("set {set} binding {}: the elements of a descriptor array differ in kind", b.binding));
                    }
                    l.descriptor_count += 1;
                    continue;
                }
                bindings.push(
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(descriptor_type(b.kind))
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE),
                );
            }
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: live device; the info lives across the call.
            let l = unsafe { d.create_descriptor_set_layout(&info, None) }.map_err(vk_err("vkCreateDescriptorSetLayout"))?;
            res.set_layouts.push(l);
        }
        let count = |k: Kind| buffers.iter().filter(|b| b.kind == k).count() as u32;
        let sizes: Vec<_> = [Kind::Storage, Kind::Uniform]
            .into_iter()
            .filter(|&k| count(k) > 0)
            .map(|k| vk::DescriptorPoolSize { ty: descriptor_type(k), descriptor_count: count(k) })
            .collect();
        let pool_info = vk::DescriptorPoolCreateInfo::default().max_sets(max_set + 1).pool_sizes(&sizes);
        // SAFETY (this block): live device, infos and arrays outlive the calls, the written
        // descriptors point at buffers created above.
        let sets = unsafe {
            res.pool = d.create_descriptor_pool(&pool_info, None).map_err(vk_err("vkCreateDescriptorPool"))?;
            let alloc = vk::DescriptorSetAllocateInfo::default().descriptor_pool(res.pool).set_layouts(&res.set_layouts);
            d.allocate_descriptor_sets(&alloc).map_err(vk_err("vkAllocateDescriptorSets"))?
        };
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> =
            res.buffers.iter().map(|&buffer| [vk::DescriptorBufferInfo { buffer, offset: 0, range: vk::WHOLE_SIZE }]).collect();
        let writes: Vec<_> = buffers
            .iter()
            .zip(&infos)
            .enumerate()
            .map(|(i, (b, info))| {
                vk::WriteDescriptorSet::default()
                    .dst_set(sets[b.set as usize])
                    .dst_binding(b.binding)
                    .dst_array_element(element(i))
                    .descriptor_type(descriptor_type(b.kind))
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: see above.
        unsafe { d.update_descriptor_sets(&writes, &[]) };
        // The pipeline.
        let module_info = vk::ShaderModuleCreateInfo::default().code(spirv);
        // SAFETY (this block): live device; all create infos outlive their calls.
        unsafe {
            res.module = d.create_shader_module(&module_info, None).map_err(vk_err("vkCreateShaderModule"))?;
            let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: push.len() as u32 * 4 }];
            let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&res.set_layouts);
            if !push.is_empty() {
                layout_info = layout_info.push_constant_ranges(&ranges);
            }
            res.layout = d.create_pipeline_layout(&layout_info, None).map_err(vk_err("vkCreatePipelineLayout"))?;
            // Each specialization constant is 4 bytes at 4 * its index in the data.
            let entries: Vec<vk::SpecializationMapEntry> = extras
                .specialize
                .iter()
                .enumerate()
                .map(|(i, &(id, _))| vk::SpecializationMapEntry { constant_id: id, offset: i as u32 * 4, size: 4 })
                .collect();
            let data: Vec<u8> = extras.specialize.iter().flat_map(|&(_, v)| v.to_le_bytes()).collect();
            let spec_info = vk::SpecializationInfo::default().map_entries(&entries).data(&data);
            let mut stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(res.module)
                .name(c"main");
            if !entries.is_empty() {
                stage = stage.specialization_info(&spec_info);
            }
            let info = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(res.layout)];
            let p = d.create_compute_pipelines(vk::PipelineCache::null(), &info, None).map_err(|(_, e)| format!("vkCreateComputePipelines: {e:?}"))?;
            res.pipeline = p[0];
        }
        // Record, submit, wait.
        // SAFETY (this block): command buffer recorded and submitted on this device's queue,
        // the fence wait ends its use before the buffers are read or destroyed.
        unsafe {
            let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(self.queue_family);
            res.cmd_pool = d.create_command_pool(&pool_info, None).map_err(vk_err("vkCreateCommandPool"))?;
            let alloc = vk::CommandBufferAllocateInfo::default()
                .command_pool(res.cmd_pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            let cmd = d.allocate_command_buffers(&alloc).map_err(vk_err("vkAllocateCommandBuffers"))?[0];
            let begin = vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(cmd, &begin).map_err(vk_err("vkBeginCommandBuffer"))?;
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, res.pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, res.layout, 0, &sets, &[]);
            if !push.is_empty() {
                let bytes: Vec<u8> = push.iter().flat_map(|w| w.to_le_bytes()).collect();
                d.cmd_push_constants(cmd, res.layout, vk::ShaderStageFlags::COMPUTE, 0, &bytes);
            }
            d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
            let barrier = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            d.end_command_buffer(cmd).map_err(vk_err("vkEndCommandBuffer"))?;
            res.fence = d.create_fence(&vk::FenceCreateInfo::default(), None).map_err(vk_err("vkCreateFence"))?;
            let cmds = [cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            d.queue_submit(self.queue, &submit, res.fence).map_err(vk_err("vkQueueSubmit"))?;
            d.wait_for_fences(&[res.fence], true, 20_000_000_000).map_err(vk_err("vkWaitForFences (20 s)"))?;
        }
        // Read back.
        let mut out = Vec::new();
        for &(mem, words) in &res.memories {
            // SAFETY: the work has finished (fence); the mapping covers `words` words.
            unsafe {
                let ptr = d.map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).map_err(vk_err("vkMapMemory"))?;
                out.push(std::slice::from_raw_parts(ptr as *const u32, words).to_vec());
                d.unmap_memory(mem);
            }
        }
        Ok(out)
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: every per-dispatch object was destroyed by `Resources::destroy`.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn descriptor_type(k: Kind) -> vk::DescriptorType {
    match k {
        Kind::Storage => vk::DescriptorType::STORAGE_BUFFER,
        Kind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
    }
}

/// Everything one dispatch creates, destroyed together (null handles are skipped).
#[derive(Default)]
struct Resources<'a> {
    device: Option<&'a ash::Device>,
    buffers: Vec<vk::Buffer>,
    memories: Vec<(vk::DeviceMemory, usize)>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pool: vk::DescriptorPool,
    module: vk::ShaderModule,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    cmd_pool: vk::CommandPool,
    fence: vk::Fence,
}

impl Resources<'_> {
    fn destroy(self) {
        let Some(d) = self.device else { return };
        // SAFETY: the queue is idle after the wait below; each handle was created on `d` once.
        unsafe {
            let _ = d.device_wait_idle();
            if self.fence != vk::Fence::null() {
                d.destroy_fence(self.fence, None);
            }
            if self.cmd_pool != vk::CommandPool::null() {
                d.destroy_command_pool(self.cmd_pool, None);
            }
            if self.pipeline != vk::Pipeline::null() {
                d.destroy_pipeline(self.pipeline, None);
            }
            if self.layout != vk::PipelineLayout::null() {
                d.destroy_pipeline_layout(self.layout, None);
            }
            if self.module != vk::ShaderModule::null() {
                d.destroy_shader_module(self.module, None);
            }
            if self.pool != vk::DescriptorPool::null() {
                d.destroy_descriptor_pool(self.pool, None);
            }
            for l in self.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
            for b in self.buffers {
                d.destroy_buffer(b, None);
            }
            for (m, _) in self.memories {
                d.free_memory(m, None);
            }
        }
    }
}
