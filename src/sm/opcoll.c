/*
** opcoll.c — register banks and operand collectors (opcoll.h; sm-model.md
** §1.4; docs/sm-config.md "Register file"), after GPGPU-Sim's
** opndcoll_rfu_t (accel-sim/gpgpu-sim_distribution dev 667834cf,
** shader.cc):
**   - register_bank: bank = (reg + warp) mod banks; in the sub-core model
**     (reg + warp) mod (banks / schedulers) + scheduler × banks / schedulers;
**   - collector_unit_t::allocate: an instruction takes a free collector
**     unit of its set (specialized, then generic; sub-core: one of its own
**     scheduler's) and queues one read per distinct source register;
**   - arbiter_t::allocate_reads: each bank grants one read per step, a
**     unit may read several banks in one step; step() runs
**     -gpgpu_reg_file_port_throughput times a cycle;
**   - dispatch_ready_cu: the unit dispatches the step after its last read
**     and is free again.
** Time is counted in steps (cycle × steps per cycle). The issue cycle's
** steps are the allocation's (GPGPU-Sim allocates a cycle later, in the
** next cycle's read_operands): the configured latency stays the
** dependent-issue latency (decision 2) and a collection without conflicts
** adds nothing; a read that waits for its bank delays the result by the
** cycles it waited, and a unit held longer keeps the next instruction out
** (expectations 8 and 9). Not modelled: the writebacks' priority on the
** banks, the in and out ports (each set has as many as it needs), the
** wavefront allocator's order (a bank serves its reads first come, first
** served, as its queue does).
*/
#include "opcoll.h"

#include <stdint.h>
#include <stdlib.h>

static const char *const set_option[OC__SETS] = {
	"-gpgpu_operand_collector_num_units_gen", "-gpgpu_operand_collector_num_units_sp",
	"-gpgpu_operand_collector_num_units_int", "-gpgpu_operand_collector_num_units_sfu",
	"-gpgpu_operand_collector_num_units_mem",
};

bool opcoll_init(OpColl *o, const SmConfig *c, int32_t nsched, Diags *d)
{
	*o = (OpColl){0};
	o->ports = c->reg_file_port_throughput > 0 ? c->reg_file_port_throughput : 1;
	o->shift = -1;
	for (int k = 0; k < 31; k++)
		if (o->ports == 1 << k)
			o->shift = k;
	o->nbanks = c->num_reg_banks > 0 ? c->num_reg_banks : 1;
	o->sub_core = c->sub_core && nsched > 1;
	o->use_wid = c->reg_bank_use_warp_id;
	int32_t pools = o->sub_core ? nsched : 1;
	if (o->sub_core && o->nbanks % nsched) {
		diag_error(d, LOC_NONE,
		           "-gpgpu_num_reg_banks %d is not a multiple of the %d schedulers (the sub-core model gives "
		           "each scheduler its share of the banks)",
		           (int)o->nbanks, (int)nsched);
		return false;
	}
	o->bps = o->nbanks / pools;
	o->bps_mask = (o->bps & (o->bps - 1)) == 0 ? o->bps - 1 : -1;
	const int32_t n[OC__SETS] = {c->oc_units_gen, c->specialized_oc ? c->oc_units_sp : 0,
	                             c->specialized_oc ? c->oc_units_int : 0, c->specialized_oc ? c->oc_units_sfu : 0,
	                             c->specialized_oc ? c->oc_units_mem : 0};
	/* integer instructions go to the INT pipeline when there are INT units,
	** else to SP (Fermi, Pascal), as scheduler_unit::cycle sends them */
	const int8_t special[UNIT__COUNT] = {[UNIT_INT] = c->num_int > 0 ? OC_INT : OC_SP, [UNIT_SFU] = OC_SFU,
	                                     [UNIT_MEM] = OC_MEM};
	int8_t sets[UNIT__COUNT][2];
	for (int u = 0; u < UNIT__COUNT; u++) {
		int k = 0;
		sets[u][0] = sets[u][1] = -1;
		const int8_t try[2] = {special[u], OC_GEN};
		for (int i = 0; i < 2; i++) {
			int8_t set = try[i];
			if (n[set] <= 0)
				continue;
			if (o->sub_core && n[set] % nsched) {
				diag_error(d, LOC_NONE,
				           "%s %d is not a multiple of the %d schedulers (the sub-core model gives each "
				           "scheduler its share of the collector units)",
				           set_option[set], (int)n[set], (int)nsched);
				return false;
			}
			sets[u][k++] = set;
		}
		if (k == 0) {
			diag_error(d, LOC_NONE,
			           "no operand collector unit for %s instructions: set %s (or %s with "
			           "-gpgpu_enable_specialized_operand_collector 1)",
			           lower_unit_name((SmUnit)u), set_option[OC_GEN], set_option[special[u]]);
			return false;
		}
	}
	int32_t per[OC__SETS];
	for (int set = 0; set < OC__SETS; set++) {
		per[set] = n[set] > 0 ? n[set] / pools : 0;
		o->cu[set] = xcalloc((size_t)pools * (size_t)per[set] + 1, sizeof *o->cu[set]);
	}
	o->pick = xcalloc((size_t)pools * UNIT__COUNT, sizeof *o->pick);
	for (int32_t p = 0; p < pools; p++)
		for (int u = 0; u < UNIT__COUNT; u++)
			for (int i = 0; i < 2 && sets[u][i] >= 0; i++) {
				OcPick *pk = &o->pick[p * UNIT__COUNT + u];
				pk->cu[i] = &o->cu[sets[u][i]][p * per[sets[u][i]]];
				pk->n[i] = per[sets[u][i]];
			}
	o->bank_free = xcalloc((size_t)o->nbanks, sizeof *o->bank_free);
	return true;
}

void opcoll_free(OpColl *o)
{
	for (int s = 0; s < OC__SETS; s++)
		free(o->cu[s]);
	free(o->pick);
	free(o->bank_free);
	*o = (OpColl){0};
}
