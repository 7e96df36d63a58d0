# SPDX-License-Identifier: GPL-2.0
# "<rank> <rate>" for each rate on its own line, unlimited (0) ranked
# above every real rate (unlimited_rank() of lab/lib/stats.awk), for
# rates_in_order of lab/exp/rx/hooks.sh.
{
	print ($1 == 0 ? unlimited_rank() : $1), $1
}
