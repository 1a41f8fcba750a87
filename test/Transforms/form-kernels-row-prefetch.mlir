// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused row-prefetch=1 multiprocessors=1}, canonicalize, cse))" | FileCheck %s

// With --row-prefetch, a row split over a cluster runs in persistent
// clusters: as many as fit at once (one multiprocessor here: one cluster of
// 5 blocks, two per multiprocessor), each walking rows `clusters` apart. The
// slice of the input read along the row (x, not the broadcast g) is copied
// into dynamic shared memory with cp.async, the first row before the loop,
// each next row after the current one is read back (a block barrier orders
// the two); the blocks' totals alternate between two rows' buffers (parity
// of the iteration). Each row begins with a block barrier and ends with a
// cluster barrier, the last of which keeps every block until the others'
// last reads.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rms_long
// CHECK:       gpu.launch clusters({{.*}}) in ({{.*}} = %c5, {{.*}}) blocks({{.*}}) in ({{.*}} = %c5, {{.*}}) threads({{.*}}) in ({{.*}} = %c512, {{.*}}) dynamic_shared_memory_size %c57344_i32 workgroup({{.*}} : memref<1x32xf32, #gpu.address_space<workgroup>>, %[[TOT:.*]] : memref<2x1xf32, #gpu.address_space<workgroup>>)
// CHECK:         memopt.occupancy_hint 2
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         %[[VIEW:.*]] = memref.view %[[DYN]][%c0][] : {{.*}} to memref<7x512x4xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-7: nvgpu.device_async_copy %arg0[{{.*}}], %[[VIEW]][{{.*}}], 4 {bypassL1}
// CHECK-NOT:     nvgpu.device_async_copy %arg1
// CHECK:         nvgpu.device_async_create_group
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %c4 step %{{.*}} {
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[PARITY:.*]] = arith.remui %{{.*}}, %c2
// CHECK:           %[[DRAIN:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT:      nvgpu.device_async_wait %[[DRAIN]] {numGroups = 0 : i32}
// CHECK-COUNT-7:   vector.load %[[VIEW]]
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK-COUNT-7:     nvgpu.device_async_copy %arg0
// CHECK:             nvgpu.device_async_create_group
// CHECK:           memref.store %{{.*}}, %[[TOT]][%[[PARITY]], %c0]
// CHECK:           memopt.cluster_barrier
// CHECK-COUNT-5:   memopt.cluster_load %[[TOT]][%[[PARITY]], %c0] from
// The output's stores wait for every block's read of the reduction's
// initial value (it is the same buffer).
// CHECK:           memopt.cluster_barrier
// CHECK:           vector.store
// CHECK:           memopt.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
// CHECK-NEXT:  } {memopt.persistent}
func.func @rms_long(%x: memref<4x69632xf32>, %g: memref<69632xf32>, %y: memref<4x69632xf32>) {
  %zero = arith.constant 0.0 : f32
  %ssq = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%ssq : memref<4xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x69632xf32>) outs(%ssq : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %g : memref<4x69632xf32>, memref<4xf32>, memref<69632xf32>) outs(%y : memref<4x69632xf32>) {
  ^bb0(%a: f32, %ss: f32, %gv: f32, %o: f32):
    %r = math.rsqrt %ss : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %gv : f32
    linalg.yield %u : f32
  }
  memref.dealloc %ssq : memref<4xf32>
  return
}
