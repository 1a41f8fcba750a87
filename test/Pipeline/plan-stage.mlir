// The plan of a tensor function, and a user's edit of it obeyed.
// RUN: memopt-opt %s --memopt-plan-stage | FileCheck %s --check-prefix=PLAN
// RUN: memopt-opt %s --memopt-plan-stage | sed 's/threads = 32, chunks = 8/threads = 64, chunks = 4/' | memopt-opt --memopt-kernel-stage | FileCheck %s --check-prefix=EDITED
// RUN: memopt-opt %s --memopt-plan-stage | sed 's/cluster = 1,/cluster = 40,/' | not memopt-opt --memopt-kernel-stage 2>&1 | FileCheck %s --check-prefix=BAD

// PLAN:      module attributes {memopt.target = #memopt.target<chip = "sm_90"
// PLAN:      func.func @rms(%{{.*}}: memref<512x1024xf32>, %{{.*}}: memref<512x1024xf32>)
// PLAN:        memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 8, cluster = 1,
// PLAN-COUNT-3: linalg.generic
// PLAN-NOT:    gpu.launch

// EDITED:    gpu.launch blocks({{.*}}) in ({{.*}} = %c512, {{.*}}) threads({{.*}}) in ({{.*}} = %c64,
// EDITED-NOT: memopt.kernel_group

// BAD:       error: cannot honour #memopt.row<{{.*}}cluster = 40{{.*}}>: cluster must be between 1 and the target's 16

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rms(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<512x1024xf32>) outs(%z : tensor<512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  %ey = tensor.empty() : tensor<512x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<512x1024xf32>, tensor<512xf32>) outs(%ey : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %sv: f32, %o: f32):
    %r = math.rsqrt %sv : f32
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}
