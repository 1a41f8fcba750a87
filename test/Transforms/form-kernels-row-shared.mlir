// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}, canonicalize, cse))" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused max-cluster-size=8}, canonicalize, cse))" | FileCheck %s --check-prefix=MAX8

// By default a block of a row cluster holds 32 elements per thread in
// registers and 32 more in shared memory: rows of 65536 f32 take clusters
// of 4 blocks of 256 threads, four per multiprocessor (4 blocks of 512 with
// registers only; blocks of 256 because the cluster stays within 8). The
// block copies the shared part of its slice of x (8 chunks of 16 bytes per
// thread, 32 KiB; not g, the same for every row) with cp.async as it
// starts, loads its
// register chunks, waits for its own copies, and reads the shared chunks
// back in a loop per reduction (the elementwise ops replayed per chunk)
// and in one for the outputs, after the register chunks' stores.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rms_long
// CHECK:       gpu.launch clusters({{.*}}) in ({{.*}} = %c4, {{.*}}) blocks({{.*}}) in ({{.*}} = %c16, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size %c32768_i32 workgroup({{.*}} : memref<1x32xf32, #gpu.address_space<workgroup>>, %[[TOT:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         %[[VIEW:.*]] = memref.view %[[DYN]][%c0][] : {{.*}} to memref<8x256x4xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: nvgpu.device_async_copy %arg0[{{.*}}], %[[VIEW]][{{.*}}], 4 {bypassL1}
// CHECK-NOT:     nvgpu.device_async_copy %arg1
// CHECK:         nvgpu.device_async_create_group
// CHECK-COUNT-8: vector.load %arg0
// CHECK:         %[[DRAIN:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT:    nvgpu.device_async_wait %[[DRAIN]] {numGroups = 0 : i32}
// CHECK-NEXT:    scf.for %[[J:.*]] = %c0 to %c8 step %c1 iter_args(
// CHECK-NEXT:      vector.load %[[VIEW]][%[[J]], %{{.*}}, %c0]
// CHECK:           scf.yield
// CHECK:         gpu.barrier
// CHECK:         memopt.cluster_barrier
// CHECK-COUNT-4: memopt.cluster_load %[[TOT]][%c0] from
// CHECK-COUNT-8: vector.store %{{.*}}, %arg2
// CHECK:         scf.for %[[K:.*]] = %c0 to %c8 step %c1 {
// CHECK:           vector.load %[[VIEW]][%[[K]], %{{.*}}, %c0]
// CHECK:           vector.load %arg1
// CHECK:           vector.store %{{.*}}, %arg2
// CHECK:         }
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.terminator
func.func @rms_long(%x: memref<4x65536xf32>, %g: memref<65536xf32>, %y: memref<4x65536xf32>) {
  %zero = arith.constant 0.0 : f32
  %ssq = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%ssq : memref<4xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x65536xf32>) outs(%ssq : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %g : memref<4x65536xf32>, memref<4xf32>, memref<65536xf32>) outs(%y : memref<4x65536xf32>) {
  ^bb0(%a: f32, %ss: f32, %gv: f32, %o: f32):
    %r = math.rsqrt %ss : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %gv : f32
    linalg.yield %u : f32
  }
  memref.dealloc %ssq : memref<4xf32>
  return
}

// -----

// Softmax with part of each block's slice in shared memory takes the online
// form too: the shared chunks join the block's maximum (first loop) and the
// sum of exp values from it (second loop); the blocks exchange (maximum,
// sum) once; the register exp values are scaled by exp(m_b - M) and the
// output pass over the shared chunks takes its exp values from the row's
// maximum M directly (0 in place of an M of -inf, as the register lanes).
// CHECK-LABEL: func.func @softmax_shared
// CHECK:         gpu.launch clusters({{.*}}) in ({{.*}} = %c4, {{.*}}) blocks({{.*}}) in ({{.*}} = %c8, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size %c32768_i32 workgroup({{.*}}, %[[TOT:.*]] : memref<2xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[VIEW:.*]] = memref.view
// CHECK-COUNT-8: nvgpu.device_async_copy %arg0
// CHECK:         nvgpu.device_async_wait
// CHECK-NEXT:    scf.for
// CHECK:           arith.maxnumf
// CHECK:         gpu.barrier
// CHECK:         %[[ISINF:.+]] = arith.cmpf oeq, %[[LMAX:.+]], %cst
// CHECK:         %[[LOCAL:.+]] = arith.select %[[ISINF]], %{{.+}}, %[[LMAX]] : f32
// CHECK-COUNT-32: math.exp
// CHECK:         scf.for
// CHECK:           vector.load %[[VIEW]]
// CHECK:           arith.subf %{{.+}}, %[[LOCAL]] : f32
// CHECK:           math.exp
// CHECK:         gpu.barrier
// CHECK:         memref.store %[[LMAX]], %[[TOT]][%c0]
// CHECK:         memref.store %{{.+}}, %[[TOT]][%c1]
// CHECK:         memopt.cluster_barrier
// CHECK-NOT:     memopt.cluster_barrier
// CHECK-COUNT-8: memopt.cluster_load %[[TOT]]
// CHECK-NOT:     memopt.cluster_load
// CHECK:         arith.maxnumf
// CHECK:         arith.maxnumf
// CHECK:         %[[M:.+]] = arith.maxnumf
// CHECK-NEXT:    arith.subf %{{.+}}, %[[M]] : f32
// CHECK:         %[[D:.+]] = arith.subf %[[LMAX]], %[[M]] : f32
// CHECK:         %[[E:.+]] = math.exp %[[D]] : f32
// CHECK:         %[[SCALE:.+]] = arith.select %[[ISINF]], %{{.+}}, %[[E]] : f32
// CHECK-COUNT-32: arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:         %[[MINF:.+]] = arith.cmpf oeq, %[[M]], %cst
// CHECK-NEXT:    %[[MU:.+]] = arith.select %[[MINF]], %{{.+}}, %[[M]] : f32
// CHECK:         memopt.cluster_arrive
// CHECK-COUNT-8: vector.store
// CHECK:         scf.for
// CHECK:           vector.load %[[VIEW]]
// CHECK:           arith.subf %{{.+}}, %[[MU]] : f32
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK:           vector.store %{{.+}}, %arg1{{.*}}vector<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memopt.cluster_wait
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
func.func @softmax_shared(%x: memref<2x65536xf32>, %y: memref<2x65536xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x65536xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<2x65536xf32>, memref<2xf32>) outs(%y : memref<2x65536xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<2x65536xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %s : memref<2x65536xf32>, memref<2xf32>) outs(%y : memref<2x65536xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %q = arith.divf %in, %sm : f32
    linalg.yield %q : f32
  }
  return
}

// -----

// An op between the online softmax's maximum and sum that reads the buffer
// after a fill replaced the maximum (z = x * 0) keeps the fill's value in
// its pass over the shared chunks; only the exp op's maximum becomes the
// row's.
// CHECK-LABEL: func.func @softmax_shared_fill_between
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         memopt.cluster_arrive
// CHECK:         scf.for
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:           arith.mulf %{{.+}}, %[[ZERO]] : f32
// CHECK:           vector.store %{{.+}}, %arg2{{.*}}vector<4xf32>
// CHECK-NEXT:    }
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
func.func @softmax_shared_fill_between(%x: memref<2x65536xf32>, %y: memref<2x65536xf32>, %z: memref<2x65536xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x65536xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<2x65536xf32>, memref<2xf32>) outs(%y : memref<2x65536xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<2x65536xf32>, memref<2xf32>) outs(%z : memref<2x65536xf32>) {
  ^bb0(%in: f32, %sv: f32, %out: f32):
    %q = arith.mulf %in, %sv : f32
    linalg.yield %q : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<2x65536xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %s : memref<2x65536xf32>, memref<2xf32>) outs(%y : memref<2x65536xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %q = arith.divf %in, %sm : f32
    linalg.yield %q : f32
  }
  memref.dealloc %s : memref<2xf32>
  return
}

// -----

// Rows of 262144 f32 (64 elements per thread): blocks of 256 threads would
// take clusters of 16, beyond the portable 8, which only per-element work
// on the special-function unit repays. A sum of exp(x) takes clusters of 16
// blocks of 256 threads (with max-cluster-size=8, 8 of 512); a plain sum
// and RMSNorm (whose rsqrt is of the row's mean square, once per row) take
// 8 of 512.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @exp_sum_262144
// CHECK:       gpu.launch clusters({{.*}}) in ({{.*}} = %c16, {{.*}}) blocks({{.*}}) in ({{.*}} = %c32, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size %c32768_i32
// MAX8-LABEL:  func.func @exp_sum_262144
// MAX8:        gpu.launch clusters({{.*}}) in ({{.*}} = %c8, {{.*}}) blocks({{.*}}) in ({{.*}} = %c16, {{.*}}) threads({{.*}}) in ({{.*}} = %c512, {{.*}}) dynamic_shared_memory_size %c65536_i32
func.func @exp_sum_262144(%x: memref<2x262144xf32>, %s: memref<2xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x262144xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %e = math.exp %a : f32
    %t = arith.addf %e, %acc : f32
    linalg.yield %t : f32
  }
  return
}
// CHECK-LABEL: func.func @sum_262144
// CHECK:       gpu.launch clusters({{.*}}) in ({{.*}} = %c8, {{.*}}) blocks({{.*}}) in ({{.*}} = %c16, {{.*}}) threads({{.*}}) in ({{.*}} = %c512, {{.*}}) dynamic_shared_memory_size %c65536_i32
func.func @sum_262144(%x: memref<2x262144xf32>, %s: memref<2xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x262144xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  }
  return
}
// CHECK-LABEL: func.func @rms_262144
// CHECK:       gpu.launch clusters({{.*}}) in ({{.*}} = %c8, {{.*}}) blocks({{.*}}) in ({{.*}} = %c16, {{.*}}) threads({{.*}}) in ({{.*}} = %c512, {{.*}}) dynamic_shared_memory_size %c65536_i32
func.func @rms_262144(%x: memref<2x262144xf32>, %g: memref<262144xf32>, %y: memref<2x262144xf32>) {
  %zero = arith.constant 0.0 : f32
  %ssq = memref.alloc() : memref<2xf32>
  linalg.fill ins(%zero : f32) outs(%ssq : memref<2xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x262144xf32>) outs(%ssq : memref<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %g : memref<2x262144xf32>, memref<2xf32>, memref<262144xf32>) outs(%y : memref<2x262144xf32>) {
  ^bb0(%a: f32, %ss: f32, %gv: f32, %o: f32):
    %r = math.rsqrt %ss : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %gv : f32
    linalg.yield %u : f32
  }
  memref.dealloc %ssq : memref<2xf32>
  return
}
