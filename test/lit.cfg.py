# -*- Python -*-
# lit configuration of memopt (modelled on mlir/examples/standalone).

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MEMOPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.memopt_obj_root, "test")
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "README.md",
                   "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%memopt_src_root", config.memopt_src_root))
config.substitutions.append(("%memopt_tools_dir", config.memopt_tools_dir))
config.substitutions.append(("%memopt_obj_root", config.memopt_obj_root))

# CUDA_HOME: gpu-module-to-binary finds libdevice through it (see
# test/Integration/Compile/libdevice-without-cuda-home.test).
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "CUDA_HOME"])
llvm_config.use_default_substitutions()
# `not` and `count` come from the LLVM tools directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.memopt_tools_dir, config.llvm_tools_dir]
tools = ["memopt-opt", "memopt-compile",
         ToolSubst("memopt-cpu-diff", unresolved="ignore"),
         ToolSubst("memopt-runtime-unittests", unresolved="ignore"),
         ToolSubst("memopt-run", unresolved="ignore"),
         ToolSubst("mlir-runner", unresolved="ignore")]
# Runtime libraries of mlir-runner (vector.print) for execution tests.
config.substitutions.append(
    ("%mlir_lib_dir",
     os.path.normpath(os.path.join(config.llvm_tools_dir, "..", "lib"))))
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.memopt_ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.memopt_ptxas))
