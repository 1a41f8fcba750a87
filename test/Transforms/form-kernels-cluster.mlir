// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused max-threads-per-block=1024 row-register-elements=32 row-shared-elements=0 max-cluster-size=16 cluster-block-threads=512}, canonicalize, cse))" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused max-threads-per-block=1024 row-register-elements=32 row-shared-elements=0 max-cluster-size=8 cluster-block-threads=512}, canonicalize, cse))" | FileCheck %s --check-prefix=MAX8

// Rows too long for one block's registers (more than 32 elements per thread
// at 1024 threads) are split over the blocks of a thread-block cluster: each
// block holds a slice in registers, the blocks combine their totals through
// distributed shared memory, and the row is read once. Blocks have 512
// threads, two per multiprocessor (an occupancy hint bounds the registers),
// when the cluster can take them, else 1024. Rows too long for the largest
// cluster are streamed (form-kernels-cluster-remarks.mlir);
// max-cluster-size=1 streams them all (form-kernels-fused.mlir).

// A row sum over 131072 f32: 8 blocks of 512 threads, 8 chunks of 4
// elements each. Block x holds slice x mod 8 (chunks (x mod 8) * 4096 + c *
// 512 + t) of row x / 8; thread 0 publishes the block total, a cluster
// barrier, then every thread adds the 8 totals in rank order and the row's
// initial value; only rank 0's thread 0 stores the row result, after a
// cluster barrier: every block has read the initial value it overwrites,
// and every block's totals (no block exits before all are read).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sum_cluster
// CHECK:         gpu.launch clusters({{.*}}) in (%{{.+}} = %c8, %{{.+}} = %c1{{.*}}, %{{.+}} = %c1{{.*}}) blocks(%[[BX:[a-z0-9_]+]], {{.*}}) in (%{{.+}} = %c32, {{.*}}) threads(%[[TX:[a-z0-9_]+]], {{.*}}) in (%{{.+}} = %c512,
// CHECK-SAME:      workgroup(%[[XCH:.+]] : memref<1x32xf32, #gpu.address_space<workgroup>>, %[[TOT:.+]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK-DAG:       %[[RANK:.+]] = arith.remui %[[BX]], %c8
// CHECK-DAG:       %[[ROW:.+]] = arith.divui %[[BX]], %c8
// CHECK-DAG:       %[[START:.+]] = arith.muli %[[RANK]], %c4096
// CHECK:           memopt.occupancy_hint 2
// CHECK-COUNT-8:   vector.load %{{.+}} : memref<4x131072xf32>, vector<4xf32>
// CHECK-NOT:       vector.load
// CHECK:           gpu.barrier
// CHECK:           memref.store %{{.+}}, %[[TOT]][%c0] : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK:           memopt.cluster_barrier
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c0
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c1
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c2
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c3
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c4
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c5
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c6
// CHECK:           memopt.cluster_load %[[TOT]][%c0] from %c7
// CHECK-NOT:       memopt.cluster_load
// CHECK:           memref.load %{{.+}}[%[[ROW]]] : memref<4xf32>
// CHECK:           memopt.cluster_barrier
// CHECK:           arith.cmpi eq, %[[RANK]], %c0
// CHECK:           memref.store %{{.+}}, %{{.+}}[%[[ROW]]] : memref<4xf32>
// CHECK-NOT:       memopt.cluster
// CHECK:           gpu.terminator
// CHECK-NOT:     scf.for
func.func @row_sum_cluster(%a: memref<4x131072xf32>, %o: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x131072xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Softmax over rows of 69632 f32 (17408 chunks): 5 blocks, balanced to 7
// chunks per thread at 512 threads. Online softmax: each block takes its
// slice's maximum, the exp values and their sum from it; the blocks exchange
// (maximum, sum) once, combine M = max m_b and S = sum s_b * exp(m_b - M),
// and scale their exp values by exp(m_b - M). x is read once and the output
// written from registers.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @softmax_cluster
// CHECK:         gpu.launch clusters({{.*}}) in (%{{.+}} = %c5, {{.*}}) blocks({{.*}}) in (%{{.+}} = %c10, {{.*}}) threads({{.*}}) in (%{{.+}} = %c512,
// CHECK-SAME:      workgroup(%{{.+}} : memref<2x32xf32, #gpu.address_space<workgroup>>, %[[TOT:.+]] : memref<2xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-7:   vector.load
// CHECK-NOT:       vector.load
// A slice that is -inf throughout takes its exp values from 0, and its
// scale is 0, not exp(-inf - M) times a NaN.
// CHECK:           gpu.barrier
// CHECK:           %[[ISINF:.+]] = arith.cmpf oeq, %[[LMAX:.+]], %cst
// CHECK:           arith.select %[[ISINF]], %{{.+}}, %[[LMAX]] : f32
// CHECK-COUNT-28:  math.exp
// CHECK:           gpu.barrier
// CHECK:           memref.store %[[LMAX]], %[[TOT]][%c0]
// CHECK:           memref.store %{{.+}}, %[[TOT]][%c1]
// CHECK:           memopt.cluster_barrier
// CHECK-NOT:       memopt.cluster_barrier
// CHECK-COUNT-10:  memopt.cluster_load %[[TOT]]
// CHECK-NOT:       memopt.cluster_load
// CHECK:           %[[D:.+]] = arith.subf %[[LMAX]], %{{.+}} : f32
// CHECK:           %[[E:.+]] = math.exp %[[D]] : f32
// CHECK:           %[[SCALE:.+]] = arith.select %[[ISINF]], %{{.+}}, %[[E]] : f32
// CHECK-COUNT-28:  arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:           arith.divf
// CHECK:           memopt.cluster_arrive
// CHECK-COUNT-7:   vector.store
// CHECK:           memopt.cluster_wait
// CHECK-NEXT:      gpu.terminator
// CHECK-NOT:     scf.for
func.func @softmax_cluster(%x: memref<2x69632xf32>, %y: memref<2x69632xf32>) {
  %ninf = arith.constant 0xFFC00000 : f32
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x69632xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<2x69632xf32>, memref<2xf32>) outs(%y : memref<2x69632xf32>) {
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
      ins(%y : memref<2x69632xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %s : memref<2x69632xf32>, memref<2xf32>) outs(%y : memref<2x69632xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %q = arith.divf %in, %sm : f32
    linalg.yield %q : f32
  }
  return
}

// -----

// bf16 rows of 131080 with an f32 statistic (RMSNorm-like sum of squares):
// the vector width follows the f32 accumulator (4 elements), 32770 chunks,
// 9 blocks (a cluster need not be a power of two) of 8 chunks at 480
// threads; the last block's chunks past the row are masked.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sumsq_bf16_cluster
// CHECK:         gpu.launch clusters({{.*}}) in (%{{.+}} = %c9, {{.*}}) blocks({{.*}}) in (%{{.+}} = %c27, {{.*}}) threads({{.*}}) in (%{{.+}} = %c480,
// CHECK:           arith.cmpi ult, %{{.+}}, %c32770
// CHECK:           memopt.cluster_barrier
// CHECK-COUNT-9:   memopt.cluster_load
// CHECK-NOT:       memopt.cluster_load
func.func @sumsq_bf16_cluster(%a: memref<3x131080xbf16>, %o: memref<3xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<3x131080xbf16>) outs(%o : memref<3xf32>) {
  ^bb0(%x: bf16, %acc: f32):
    %w = arith.extf %x : bf16 to f32
    %sq = arith.mulf %w, %w : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row of 262144 f32 takes 16 blocks of 512 threads; with at most 8 blocks
// per cluster (MAX8), 8 of 1024 threads instead (one per multiprocessor: no
// occupancy hint).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @wide_blocks_when_the_cluster_is_full
// CHECK:         gpu.launch clusters({{.*}}) in (%{{.+}} = %c16, {{.*}}) blocks({{.*}}) in (%{{.+}} = %c32, {{.*}}) threads({{.*}}) in (%{{.+}} = %c512,
// CHECK:           memopt.occupancy_hint 2
// CHECK-COUNT-16:  memopt.cluster_load
// CHECK-NOT:       memopt.cluster_load
// MAX8-LABEL:  func.func @wide_blocks_when_the_cluster_is_full
// MAX8:          gpu.launch clusters({{.*}}) in (%{{.+}} = %c8, {{.*}}) blocks({{.*}}) in (%{{.+}} = %c16, {{.*}}) threads({{.*}}) in (%{{.+}} = %c1024,
// MAX8-NOT:        memopt.occupancy_hint
// MAX8-COUNT-8:    vector.load
// MAX8-NOT:        vector.load
func.func @wide_blocks_when_the_cluster_is_full(%a: memref<2x262144xf32>, %o: memref<2xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<2x262144xf32>) outs(%o : memref<2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not the online form: the sum is of x - max, not of exp(x - max), so the
// maximum and the sum go through the cluster one after the other.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @centered_sum_two_exchanges
// MAX8-LABEL:  func.func @centered_sum_two_exchanges
// CHECK:         memopt.cluster_barrier
// CHECK-COUNT-8:   memopt.cluster_load %{{.+}}[%c0]
// CHECK:         memopt.cluster_barrier
// CHECK-COUNT-8:   memopt.cluster_load %{{.+}}[%c1]
func.func @centered_sum_two_exchanges(%x: memref<2x131072xf32>, %m: memref<2xf32>, %y: memref<2x131072xf32>, %s: memref<2xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x131072xf32>) outs(%m : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maxnumf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<2x131072xf32>, memref<2xf32>) outs(%y : memref<2x131072xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<2x131072xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }
  return
}

// -----

// Not the online form: the sum is of exp(x - max) squared (the rescale would
// be wrong), so the totals go through the cluster one after the other.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_of_squares_two_exchanges
// CHECK:         memopt.cluster_barrier
// CHECK-COUNT-8:   memopt.cluster_load %{{.+}}[%c0]
// CHECK:         memopt.cluster_barrier
// CHECK-COUNT-8:   memopt.cluster_load %{{.+}}[%c1]
// MAX8-LABEL:  func.func @sum_of_squares_two_exchanges
func.func @sum_of_squares_two_exchanges(%x: memref<2x131072xf32>, %m: memref<2xf32>, %y: memref<2x131072xf32>, %s: memref<2xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x131072xf32>) outs(%m : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maxnumf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<2x131072xf32>, memref<2xf32>) outs(%y : memref<2x131072xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<2x131072xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %a = arith.addf %sq, %acc : f32
    linalg.yield %a : f32
  }
  return
}
