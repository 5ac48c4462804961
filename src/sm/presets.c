/*
** presets.c — the SM model's presets (sm.h), written for musimd in the
** gpgpusim.config syntax, every value with its source (docs/sm-config.md).
** They are not copies of GPGPU-Sim's files: the values are facts read
** from them, from ElTantawy's thesis and from microbenchmarks.
**
** Sources, abbreviated in the comments:
**   QV100    accel-sim/gpgpu-sim_distribution, branch dev, 667834cf (2024-10-07),
**            configs/tested-cfgs/SM7_QV100/gpgpusim.config
**   GTX480   the same tree, configs/tested-cfgs/SM2_GTX480/gpgpusim.config
**   GS-dflt  the same tree's built-in default (gpu-sim.cc, cuda-sim.cc),
**            where the config file sets nothing
**   GS-code  the same tree's code (shader.cc register_bank always adds
**            the warp id; -gpgpu_reg_bank_use_warp_id is registered, unused)
**   C2050-GS the same tree, configs/deprecated-cfgs/TeslaC2050/gpgpusim.config
**   C2050    ElTantawy/mimd_to_simt 1f3f1d8, AWARE/distribution/configs/
**            TeslaC2050/gpgpusim.config (GPGPU-Sim 3.2.2), and Table 5.3
**            of ElTantawy's thesis (the design note's §2.1)
**   TV-ubench  the Accel-Sim tuner's microbenchmarks on a TITAN V
**            (accel-sim-framework util/tuner/GPU_Microbenchmark, output.file;
**            the design note's §3)
**   note     ../shared/notes/sm-model.md, the design of `musimd sm`
** Options the model does not use yet (caches, DRAM, topology) are written
** where the source has them: they are accepted and named in a note.
*/
#include <string.h>

#include "sm.h"

/* The default (sm_config_default is this, tests/test_sm_config.c checks). */
static const char qv100[] =
	"# qv100: NVIDIA Quadro GV100 (Volta) as GPGPU-Sim models it; musimd's default.\n"
	"# Source: QV100 (accel-sim/gpgpu-sim_distribution dev 667834cf) unless noted.\n"
	"-gpgpu_n_clusters 80                  # QV100 (one SM is modelled)\n"
	"-gpgpu_n_cores_per_cluster 1          # QV100\n"
	"-gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0   # QV100: core:icnt:L2:DRAM MHz\n"
	"-gpgpu_shader_core_pipeline 2048:32   # QV100: threads per SM : warp size\n"
	"-gpgpu_shader_registers 65536         # QV100\n"
	"-gpgpu_registers_per_block 65536      # QV100\n"
	"-gpgpu_shader_cta 32                  # QV100\n"
	"-musimd_cta_threads 0                 # musimd: the kernel is one CTA (the papers' machine)\n"
	"-musimd_regs_per_thread 0             # musimd: the lowered program's MaxLive\n"
	"-musimd_reg_alloc_unit 4              # GPGPU-Sim's max_cta: (regs + 3) & ~3\n"
	"-gpgpu_simd_model 1                   # QV100: the IPDOM stack\n"
	"-gpgpu_simd_rec_time_out -1           # ElTantawy's fork: never (AWARE only)\n"
	"-musimd_path_order fallthrough        # musimd's --path-order default (GPGPU-Sim: taken)\n"
	"-gpgpu_num_sched_per_core 4           # QV100\n"
	"-gpgpu_scheduler lrr                  # QV100 (gpgpu-sim master 2020: gto)\n"
	"-gpgpu_max_insn_issue_per_warp 1      # QV100\n"
	"-gpgpu_dual_issue_diff_exec_units 1   # QV100\n"
	"-gpgpu_sub_core_model 1               # QV100\n"
	"-gpgpu_num_sp_units 4                 # QV100\n"
	"-gpgpu_num_int_units 4                # QV100\n"
	"-gpgpu_num_sfu_units 4                # QV100\n"
	"-gpgpu_num_dp_units 4                 # QV100\n"
	"-gpgpu_pipeline_widths 4,4,4,4,4,4,4,4,4,4,8,4,4   # QV100\n"
	"-ptx_opcode_latency_int 4,13,4,5,145,21   # QV100: ADD,MAX,MUL,MAD,DIV,SHFL\n"
	"-ptx_opcode_initiation_int 2,2,2,2,8,4    # QV100\n"
	"-ptx_opcode_latency_sfu 100           # QV100\n"
	"-ptx_opcode_initiation_sfu 8          # QV100\n"
	"-gpgpu_num_reg_banks 16               # QV100\n"
	"-gpgpu_reg_file_port_throughput 2     # QV100\n"
	"-gpgpu_reg_bank_use_warp_id 1         # GS-code: register_bank adds the warp whatever the option says\n"
	"-gpgpu_enable_specialized_operand_collector 0   # QV100\n"
	"-gpgpu_operand_collector_num_units_gen 8        # QV100: 2 per scheduler\n"
	"-gpgpu_operand_collector_num_units_sp 4         # GS-dflt (unused: no specialized sets)\n"
	"-gpgpu_operand_collector_num_units_int 0        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_sfu 4        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_mem 2        # GS-dflt\n"
	"-gpgpu_shmem_num_banks 32             # QV100\n"
	"-gpgpu_shmem_limited_broadcast 0      # QV100\n"
	"-gpgpu_shmem_warp_parts 1             # QV100\n"
	"-gpgpu_smem_latency 20                # QV100\n"
	"-gpgpu_shmem_size 98304               # QV100\n"
	"-gpgpu_shmem_per_block 65536          # QV100\n"
	"-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32   # QV100\n"
	"-gpgpu_l1_latency 20                  # QV100\n"
	"-gpgpu_gmem_skip_L1D 0                # QV100\n"
	"-gpgpu_coalesce_arch 70               # QV100\n"
	"-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32  # QV100\n"
	"-gpgpu_n_mem 32                       # QV100\n"
	"-gpgpu_n_sub_partition_per_mchannel 2 # QV100\n"
	"-gpgpu_l2_rop_latency 160             # QV100\n"
	"-dram_latency 100                     # QV100\n"
	"-musimd_ibuffer 1                     # note §5: a 2-entry I-buffer per warp, refetched after a branch\n"
	"-gpgpu_perfect_inst_const_cache 1     # QV100\n"
	"-gpgpu_inst_fetch_throughput 4        # QV100\n"
	"-musimd_icache_miss_latency 180       # QV100 l1_latency 20 + l2_rop_latency 160: served by the L2\n"
	"-gpgpu_kernel_launch_latency 5000     # QV100\n"
	"-gpgpu_deadlock_detect 1              # GS-dflt\n"
	"-gpgpu_max_cycle 0                    # GS-dflt: no limit\n"
	"-gpgpu_max_insn 0                     # GS-dflt: no limit\n"
	"-musimd_progress_window 100000        # note §5, decision 5\n"
	"-musimd_gpgpusim_stage_overhead 0     # note §5\n";

/* qv100 with the latencies measured on Volta hardware (note §3): the
** model's latency is the dependent-issue latency (note, decision 2). */
static const char qv100_hw[] =
	"# qv100-hw: qv100 with Volta's measured latencies (note §3).\n"
	"# Options not listed here are qv100's (QV100, accel-sim/gpgpu-sim_distribution dev 667834cf).\n"
	"-gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0   # QV100\n"
	"-gpgpu_shader_core_pipeline 2048:32   # QV100\n"
	"-gpgpu_shader_registers 65536         # QV100\n"
	"-gpgpu_shader_cta 32                  # QV100\n"
	"-gpgpu_simd_model 1                   # QV100\n"
	"-musimd_path_order taken              # the hardware's order: taken first (note §1.6)\n"
	"-gpgpu_num_sched_per_core 4           # QV100; 4 per SM on Volta (Accel-Sim hw_def)\n"
	"-gpgpu_scheduler lrr                  # QV100\n"
	"-gpgpu_max_insn_issue_per_warp 1      # QV100\n"
	"-gpgpu_dual_issue_diff_exec_units 1   # QV100\n"
	"-gpgpu_sub_core_model 1               # QV100\n"
	"-gpgpu_num_sp_units 4                 # QV100\n"
	"-gpgpu_num_int_units 4                # QV100\n"
	"-gpgpu_num_sfu_units 4                # QV100\n"
	"-gpgpu_num_dp_units 4                 # QV100\n"
	"# ADD, MUL, MAD: 4 (TV-ubench: dependent mad.lo.s32 4.31 clk); MAX, DIV,\n"
	"# SHFL were not measured: QV100's values.\n"
	"-ptx_opcode_latency_int 4,13,4,4,145,21\n"
	"# II 2: TV-ubench MaxFlops_int32 63.4 lanes/clk/SM = 4 units x 32 / 2\n"
	"-ptx_opcode_initiation_int 2,2,2,2,8,4\n"
	"-ptx_opcode_latency_sfu 21            # TV-ubench: fast sqrt 21.1 clk\n"
	"-ptx_opcode_initiation_sfu 8          # TV-ubench: 15.98 ops/clk/SM = 4 x 32 / 8\n"
	"-gpgpu_num_reg_banks 16               # QV100\n"
	"-gpgpu_reg_file_port_throughput 2     # QV100\n"
	"-gpgpu_reg_bank_use_warp_id 1         # GS-code\n"
	"-gpgpu_enable_specialized_operand_collector 0   # QV100\n"
	"-gpgpu_operand_collector_num_units_gen 8        # QV100\n"
	"-gpgpu_operand_collector_num_units_sp 4         # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_int 0        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_sfu 4        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_mem 2        # GS-dflt\n"
	"-musimd_ibuffer 1                     # note §5\n"
	"-gpgpu_perfect_inst_const_cache 1     # QV100\n"
	"-gpgpu_inst_fetch_throughput 4        # QV100\n"
	"-musimd_icache_miss_latency 211       # TV-ubench: L2 hit 211 clk\n"
	"-gpgpu_shmem_num_banks 32             # QV100; 32 x 4 B banks (note §3)\n"
	"-gpgpu_shmem_limited_broadcast 0      # QV100\n"
	"-gpgpu_shmem_warp_parts 1             # QV100\n"
	"-gpgpu_smem_latency 27                # TV-ubench: shared load 27.0 clk\n"
	"-gpgpu_l1_latency 33                  # TV-ubench: L1 hit 33.7 clk (not modelled yet)\n"
	"-gpgpu_l2_rop_latency 178             # TV-ubench: L2 hit 211 clk = L1 33 + 178 (not modelled yet)\n"
	"-dram_latency 77                      # TV-ubench: DRAM 313 clk = 211 + 77 x 1132/850 (not modelled yet)\n"
	"-gpgpu_kernel_launch_latency 7258     # TV-ubench: 7257.6 clk\n"
	"-gpgpu_deadlock_detect 1              # GS-dflt\n"
	"-gpgpu_max_cycle 0                    # GS-dflt\n"
	"-gpgpu_max_insn 0                     # GS-dflt\n"
	"-musimd_progress_window 100000        # note §5, decision 5\n"
	"-musimd_gpgpusim_stage_overhead 0     # note §5\n";

/* The machine of ElTantawy's AWARE experiments (note §2.1). */
static const char c2050_aware[] =
	"# c2050-aware: NVIDIA Tesla C2050 (Fermi) as ElTantawy's AWARE experiments ran it\n"
	"# (GPGPU-Sim 3.2.2); sources: C2050 (the fork's config and Table 5.3).\n"
	"-gpgpu_n_clusters 14                  # C2050, Table 5.3: 14 SMs (one is modelled)\n"
	"-gpgpu_n_cores_per_cluster 1          # C2050\n"
	"-gpgpu_clock_domains 575.0:575.0:575.0:750.0   # C2050, Table 5.3: 575 MHz core, 750 MHz memory\n"
	"-gpgpu_shader_core_pipeline 1536:32   # C2050, Table 5.3: 1536 threads, warp 32\n"
	"-gpgpu_shader_registers 32768         # C2050, Table 5.3\n"
	"-gpgpu_shader_cta 8                   # C2050\n"
	"-gpgpu_simd_model 2                   # AWARE (the fork's value)\n"
	"-musimd_path_order fallthrough        # AWARE queues the not-taken side first (note §2.1)\n"
	"-gpgpu_num_sched_per_core 2           # C2050\n"
	"-gpgpu_scheduler gto                  # C2050 file; Table 5.3 says GLRR (musimd's glrr is to come)\n"
	"-gpgpu_max_insn_issue_per_warp 1      # C2050\n"
	"-gpgpu_dual_issue_diff_exec_units 1   # GS-dflt\n"
	"-gpgpu_sub_core_model 0               # GS-dflt (GPGPU-Sim 3.x has none)\n"
	"-gpgpu_num_sp_units 2                 # C2050\n"
	"-gpgpu_num_int_units 0                # GPGPU-Sim 3.x: integer ops on the SP units\n"
	"-gpgpu_num_sfu_units 1                # C2050\n"
	"-gpgpu_num_dp_units 0                 # GPGPU-Sim 3.x: fp64 on the SP units\n"
	"# ADD,MAX,MUL,MAD,DIV: C2050; SHFL: GS-dflt (Fermi has no shfl)\n"
	"-ptx_opcode_latency_int 4,13,4,5,145,32\n"
	"-ptx_opcode_initiation_int 1,2,2,1,8,4\n"
	"-ptx_opcode_latency_sfu 8             # GS-dflt (C2050 sets none)\n"
	"-ptx_opcode_initiation_sfu 8          # GS-dflt\n"
	"-gpgpu_num_reg_banks 16               # C2050\n"
	"-gpgpu_reg_file_port_throughput 1     # GS-dflt\n"
	"-gpgpu_reg_bank_use_warp_id 1         # GS-code\n"
	"-gpgpu_enable_specialized_operand_collector 1   # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_gen 0        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_sp 6         # C2050-GS\n"
	"-gpgpu_operand_collector_num_units_int 0        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_sfu 8        # C2050-GS\n"
	"-gpgpu_operand_collector_num_units_mem 2        # GS-dflt\n"
	"-musimd_ibuffer 1                     # note §5\n"
	"-gpgpu_perfect_inst_const_cache 0     # GS-dflt: the L1I misses\n"
	"-gpgpu_inst_fetch_throughput 1        # GS-dflt\n"
	"-musimd_icache_miss_latency 120       # C2050 rop_latency 120: served by the L2\n"
	"-gpgpu_shmem_num_banks 32             # C2050\n"
	"-gpgpu_shmem_limited_broadcast 0      # C2050\n"
	"-gpgpu_shmem_warp_parts 1             # C2050\n"
	"-gpgpu_smem_latency 3                 # GS-dflt (GPGPU-Sim 3.2.2 has no such option)\n"
	"-gpgpu_shmem_size 49152               # C2050, Table 5.3: 48 KB\n"
	"-gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:32:8,8   # C2050, Table 5.3: 16 KB, 128 B lines, 4-way LRU\n"
	"-gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4:0,32   # C2050\n"
	"-gpgpu_n_mem 6                        # C2050, Table 5.3: 6 channels\n"
	"-rop_latency 120                      # C2050 (GPGPU-Sim 3.x spelling)\n"
	"-dram_latency 100                     # C2050\n"
	"-gpgpu_kernel_launch_latency 0        # GS-dflt (GPGPU-Sim 3.x has none)\n"
	"-gpgpu_deadlock_detect 1              # GS-dflt\n"
	"-gpgpu_max_cycle 0                    # GS-dflt\n"
	"-gpgpu_max_insn 0                     # GS-dflt\n"
	"-musimd_progress_window 100000        # note §5, decision 5\n"
	"-musimd_gpgpusim_stage_overhead 0     # note §5\n";

/* GTX480 (Fermi), the BOWS and MP experiments' machine (note §1.9, §2.1). */
static const char gtx480[] =
	"# gtx480: NVIDIA GeForce GTX 480 (Fermi) as GPGPU-Sim models it.\n"
	"# Source: GTX480 (accel-sim/gpgpu-sim_distribution dev 667834cf) unless noted.\n"
	"-gpgpu_n_clusters 15                  # GTX480 (one SM is modelled)\n"
	"-gpgpu_n_cores_per_cluster 1          # GTX480\n"
	"-gpgpu_clock_domains 700.0:700.0:700.0:924.0   # GTX480\n"
	"-gpgpu_shader_core_pipeline 1536:32   # GTX480\n"
	"-gpgpu_shader_registers 32768         # GTX480\n"
	"-gpgpu_shader_cta 8                   # GTX480\n"
	"-gpgpu_simd_model 1                   # GTX480\n"
	"-musimd_path_order fallthrough        # musimd's --path-order default (GPGPU-Sim: taken)\n"
	"-gpgpu_num_sched_per_core 2           # GTX480\n"
	"-gpgpu_scheduler gto                  # GTX480\n"
	"-gpgpu_max_insn_issue_per_warp 1      # GTX480\n"
	"-gpgpu_dual_issue_diff_exec_units 1   # GS-dflt\n"
	"-gpgpu_sub_core_model 0               # GS-dflt\n"
	"-gpgpu_num_sp_units 2                 # GTX480\n"
	"-gpgpu_num_int_units 0                # GS-dflt: integer ops on the SP units\n"
	"-gpgpu_num_sfu_units 1                # GTX480\n"
	"-gpgpu_num_dp_units 0                 # GTX480\n"
	"-gpgpu_pipeline_widths 2,0,0,1,1,2,0,0,1,1,2   # GTX480\n"
	"-ptx_opcode_latency_int 4,13,4,5,145,32   # GTX480\n"
	"-ptx_opcode_initiation_int 1,2,2,1,8,4    # GTX480\n"
	"-ptx_opcode_latency_sfu 8             # GS-dflt (GTX480 sets none)\n"
	"-ptx_opcode_initiation_sfu 8          # GS-dflt\n"
	"-gpgpu_num_reg_banks 16               # GTX480\n"
	"-gpgpu_reg_file_port_throughput 1     # GS-dflt\n"
	"-gpgpu_reg_bank_use_warp_id 1         # GS-code\n"
	"-gpgpu_enable_specialized_operand_collector 1   # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_gen 0        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_sp 6         # GTX480\n"
	"-gpgpu_operand_collector_num_units_int 0        # GS-dflt\n"
	"-gpgpu_operand_collector_num_units_sfu 8        # GTX480\n"
	"-gpgpu_operand_collector_num_units_mem 2        # GS-dflt\n"
	"-musimd_ibuffer 1                     # note §5\n"
	"-gpgpu_perfect_inst_const_cache 0     # GS-dflt: the L1I misses\n"
	"-gpgpu_inst_fetch_throughput 1        # GS-dflt\n"
	"-musimd_icache_miss_latency 155       # GTX480 l1_latency 35 + l2_rop_latency 120: served by the L2\n"
	"-gpgpu_shmem_num_banks 32             # GTX480\n"
	"-gpgpu_shmem_limited_broadcast 0      # GTX480\n"
	"-gpgpu_shmem_warp_parts 1             # GTX480\n"
	"-gpgpu_smem_latency 26                # GTX480\n"
	"-gpgpu_shmem_size 49152               # GTX480\n"
	"-gpgpu_l1_latency 35                  # GTX480\n"
	"-gpgpu_l2_rop_latency 120             # GTX480\n"
	"-dram_latency 100                     # GTX480\n"
	"-gpgpu_kernel_launch_latency 0        # GS-dflt\n"
	"-gpgpu_deadlock_detect 1              # GS-dflt\n"
	"-gpgpu_max_cycle 0                    # GS-dflt\n"
	"-gpgpu_max_insn 0                     # GS-dflt\n"
	"-musimd_progress_window 100000        # note §5, decision 5\n"
	"-musimd_gpgpusim_stage_overhead 0     # note §5\n";

const char *const sm_presets[] = {"qv100", "qv100-hw", "c2050-aware", "gtx480", NULL};
static const char *const preset_text[] = {qv100, qv100_hw, c2050_aware, gtx480};

const char *sm_config_preset(const char *name)
{
	for (int i = 0; sm_presets[i]; i++)
		if (!strcmp(sm_presets[i], name))
			return preset_text[i];
	return NULL;
}
