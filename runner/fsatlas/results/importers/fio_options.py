"""fio's options as fio 3.33 reads them, so that two spellings of one setting are one value
(importers.fio.job_options): each option's kind and default, as `fio --cmdhelp=NAME` of fio 3.33
(Debian's 3.33-3) prints them for every name `fio --cmdhelp=all` lists (its general options; an
engine's own are read as written), and the units of its time options from fio's HOWTO (3.33,
"Time values" and each option's entry: runtime, ramp_time, startdelay and the steadystate
times in seconds, latency_target and latency_window in microseconds). Checked against
`fio --parse-only --debug=parse` of 3.33: iodepth=01 reads 1, bs=4k,4k reads 4096 for each
direction, runtime=1 and runtime=1s read 1000000 (microseconds); and bs=8k,, ran 8k reads and 4k
writes (fio 3.33, rw=randrw: io_bytes / total_ios of each side), as the HOWTO says.

The normal form: an alias by its option's name (timeout: runtime); a number without leading
zeros; a boolean 1 or 0 (any other number is 1; an "empty or boolean" option given with no value
is set); a time in whole seconds where it is one (bare for the options fio reads in seconds),
else ms or us; bs, ba and the rates, which take one value for reads, writes and trims or a list
of them (a value not followed by a comma applies to the directions after it; an empty one is the
default), as one value where the three are one, else the three; rwmixwrite=N as rwmixread=100-N,
buffered=N as direct=1-N. An option at fio's default is the option left out: dropped (fsync=0,
time_based=0, rwmixread=50), but for those always filled in (FILLED: a sweep's dimensions and
export columns) and the block size (KEPT).
"""
import re

_INT = """ba bs buffer_compress_chunk buffer_compress_percentage bwavgtime cgroup_weight cpumask
dedupe_percentage dedupe_working_set_percentage fdatasync flow flow_id flow_sleep fsync gid gtod_cpu
iodepth iodepth_batch iodepth_batch_complete_max iodepth_batch_complete_min iodepth_low iopsavgtime
job_max_open_zones log_alternate_epoch_clock_id log_avg_msec log_compression log_entries
log_hist_coarseness log_hist_msec loops max_open_zones nice nrfiles numjobs offset_align
openfiles percentage_random prio prioclass rate rate_cycle rate_iops rate_iops_min rate_min
replay_align replay_scale replay_time_scale rwmixread rwmixwrite significant_figures
thinktime_blocks trim_backlog_batch trim_percentage uid verify_async
verify_backlog_batch verify_interval verify_offset write_barrier"""
_BOOL = """allow_file_create allow_mounted_write allrandrepeat atomic block_error_percentiles buffered
cgroup_nodelete clat_percentiles create_fsync create_on_open create_only create_serialize
dedupe_global direct disable_bw_measurement disable_clat disable_lat disable_slat disk_util
do_verify end_fsync error_dump experimental_verify file_append fill_device fsync_on_close
gtod_reduce ignore_zone_limits invalidate lat_percentiles latency_run log_alternate_epoch
log_max_value log_offset log_prio log_store_compressed log_unix_epoch overwrite per_job_logs
pre_read randrepeat rate_ignore_thinktime read_beyond_wp read_iolog_chunked replay_no_stall
scramble_buffers serialize_overlap slat_percentiles stats trim_verify_zero unique_filename unlink
unlink_each_loop verify_dump verify_fatal verify_state_load verify_state_save"""
_EMPTYBOOL = """bs_unaligned exitall exitall_on_error group_reporting new_group norandommap refill_buffers stonewall
thread time_based verify_only zero_buffers"""
# every option fio 3.33 reads as a time: those whose "1m" is 60000000 (one minute in microseconds)
# to `fio --parse-only --debug=parse --name=a --NAME=1m`, tried for each of the 210 names
# `fio --cmdhelp=all` lists (--cmdhelp itself says "integer value" for thinktime or max_latency)
_TIME = """latency_target latency_window max_latency ramp_time runtime startdelay steadystate_duration
steadystate_ramp_time thinktime thinktime_iotime thinktime_spin"""
FIO_DEFAULTS = {'allow_file_create': '1', 'allow_mounted_write': '0', 'allrandrepeat': '0', 'atomic': '0',
                'block_error_percentiles': '0', 'bs': '4096', 'buffer_compress_chunk': '512', 'buffered': '1', 'bwavgtime':
                '500', 'cgroup_nodelete': '0', 'clat_percentiles': '1', 'create_fsync': '1', 'create_on_open': '0',
                'create_only': '0', 'create_serialize': '1', 'dedupe_global': '0', 'dedupe_working_set_percentage': '5',
                'direct': '0', 'disable_bw_measurement': '0', 'disable_clat': '0', 'disable_lat': '0', 'disable_slat': '0',
                'disk_util': '1', 'do_verify': '1', 'end_fsync': '0', 'error_dump': '0', 'fdatasync': '0', 'file_append': '0',
                'fill_device': '0', 'flow': '0', 'flow_id': '0', 'flow_sleep': '0', 'fsync': '0', 'fsync_on_close': '0',
                'gtod_reduce': '0', 'ignore_zone_limits': '0', 'invalidate': '1', 'iodepth': '1', 'iodepth_batch': '1',
                'iodepth_batch_complete_min': '1', 'iopsavgtime': '500', 'job_max_open_zones': '0', 'lat_percentiles': '0',
                'latency_run': '0', 'log_avg_msec': '0', 'log_entries': '1024', 'log_hist_coarseness': '0', 'log_hist_msec':
                '0', 'log_max_value': '0', 'log_offset': '0', 'log_prio': '0', 'loops': '1', 'max_open_zones': '0', 'nice':
                '0', 'nrfiles': '1', 'numjobs': '1', 'offset_align': '0', 'overwrite': '0', 'per_job_logs': '1',
                'percentage_random': '100,100,100', 'pre_read': '0', 'randrepeat': '1', 'rate_cycle': '1000',
                'read_beyond_wp': '0', 'read_iolog_chunked': '0', 'replay_no_stall': '0', 'replay_scale': '1',
                'replay_time_scale': '100', 'runtime': '0', 'rwmixread': '50', 'rwmixwrite': '50', 'scramble_buffers': '1',
                'serialize_overlap': '0', 'significant_figures': '4', 'slat_percentiles': '0', 'startdelay': '0', 'stats':
                '1', 'steadystate_duration': '0', 'steadystate_ramp_time': '0', 'thinktime': '0', 'thinktime_blocks': '1',
                'thinktime_iotime': '0', 'thinktime_spin': '0', 'trim_percentage': '0', 'trim_verify_zero': '1',
                'unique_filename': '1', 'unlink': '0', 'unlink_each_loop': '0', 'verify_async': '0', 'verify_dump': '0',
                'verify_fatal': '0', 'verify_state_save': '1', 'write_barrier': '0'}
ALIASES = {'blockalign': 'ba', 'blocksize': 'bs', 'blocksize_unaligned': 'bs_unaligned', 'blocksize_range': 'bsrange',
           'disable_bw': 'disable_bw_measurement', 'fill_fs': 'fill_device', 'io_limit': 'io_size',
           'iodepth_batch_submit': 'iodepth_batch', 'iodepth_batch_complete': 'iodepth_batch_complete_min', 'iomem':
           'mem', 'nr_files': 'nrfiles', 'fileoffset': 'offset', 'ratecycle': 'rate_cycle', 'ratemin': 'rate_min',
           'timeout': 'runtime', 'readwrite': 'rw', 'ss': 'steadystate', 'ss_dur': 'steadystate_duration', 'ss_ramp':
           'steadystate_ramp_time', 'wait_for_previous': 'stonewall'}

# the string (and (null)-typed) options' defaults, from the same --cmdhelp: rw and ioengine are KEPT
# (ioengine's default is the platform's), filename_format is a PLACE
FIO_DEFAULTS.update({"dedupe_mode": "repeat", "exit_what": "group", "fadvise_hint": "1", "fallocate": "native",
                     "io_submit_mode": "inline", "kb_base": "1024", "lockmem": "0", "mem": "malloc", "number_ios": "0",
                     "offset": "0", "offset_increment": "0", "random_distribution": "random",
                     "random_generator": "tausworthe", "randseed": "0x89", "rate_process": "linear",
                     "rw_sequencer": "sequential", "verify": "0", "zonecapacity": "0", "zonerange": "0", "zonesize": "0",
                     "zoneskip": "0", "latency_percentile": "100",
                     "percentile_list": "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"})
# options `fio --cmdhelp` of 3.33 gives "no default" whose unset value is off, as the HOWTO (3.33)
# says of each and `fio --parse-only --debug=parse` stores: no ramp, no rate limit, no latency
# limit, cpus_allowed_policy=shared ("the default": HOWTO)
FIO_DEFAULTS.update({"ramp_time": "0", "rate": "0", "rate_iops": "0", "rate_min": "0", "rate_iops_min": "0",
                     "max_latency": "0", "latency_target": "0", "latency_window": "0", "cpus_allowed_policy": "shared",
                     "sync": "none", "unified_rw_reporting": "none"})
# and the string options' defaults --cmdhelp states that the walk over every option found missing
# (test_import_round4: each option at its stated default against it left out)
FIO_DEFAULTS.update({"continue_on_error": "none", "file_service_type": "roundrobin", "lockfile": "none",
                     "steadystate": "iops_slope:0.01%", "thinktime_blocks_type": "complete", "zonemode": "none"})
# the values --cmdhelp=NAME lists as another's alias: sync's 0 and 1 (none, sync), unified_rw_reporting's
# 0, 1, 2 ("Alias for 'none'", 'mixed', 'both')
VALUE_ALIASES = {"sync": {"0": "none", "1": "sync"}, "unified_rw_reporting": {"0": "none", "1": "mixed", "2": "both"}}
# options whose default is another option's value ("defaults to the same as iodepth", "defaults to
# the minimum blocksize": HOWTO 3.33, iodepth_low and blockalign)
DEFAULTS_TO = {"iodepth_low": "iodepth", "ba": "bs"}
KINDS = {name: kind for kind, names in (("int", _INT), ("bool", _BOOL), ("emptybool", _EMPTYBOOL), ("time", _TIME))
         for name in names.split()}
# (a bare number: seconds to these, microseconds to the other time options: --debug=parse of
# thinktime_iotime=1 is out=1000000, of thinktime=1 out=1)
SECONDS = frozenset({"runtime", "ramp_time", "startdelay", "steadystate_duration", "steadystate_ramp_time",
                     "thinktime_iotime"})
BY_DIRECTION = frozenset({"bs", "ba", "rate", "rate_min", "rate_iops", "rate_iops_min", "percentage_random"})
FILLED = ("iodepth", "numjobs", "direct")  # always stated, at fio's default where a report leaves them out
_TIME_VALUE = re.compile(r"(\d+)\s*([a-z]*)", re.I | re.ASCII)
# fio 3.33's time suffixes (any case); any other (sec, min, hour, day) it reads as no unit at
# all: runtime=2sec is 2 microseconds (--parse-only --debug=parse: out=2), so it is here too
_UNIT_US = {"us": 1, "usec": 1, "ms": 1000, "msec": 1000, "s": 10 ** 6, "m": 60 * 10 ** 6, "h": 3600 * 10 ** 6,
            "d": 86400 * 10 ** 6}


_HEX = re.compile(r"0x[0-9a-f]+", re.I)  # fio reads a 0x number as hexadecimal (iodepth=0x10: out=16)


def _time(name: str, value: str) -> str:
    if _HEX.fullmatch(value.strip()):  # microseconds whatever the option's unit (runtime=0x10: out=16)
        us = int(value.strip(), 16)
    else:
        match = _TIME_VALUE.fullmatch(value.strip())
        if not match:
            return value
        unit = match.group(2).lower()
        us = int(match.group(1)) * (_UNIT_US.get(unit, 1) if unit else 10 ** 6 if name in SECONDS else 1)
    if us % 10 ** 6 == 0:  # seconds bare where fio reads a bare number as seconds
        return str(us // 10 ** 6) if name in SECONDS else f"{us // 10 ** 6}s"
    return f"{us // 1000}ms" if us % 1000 == 0 else f"{us}us"


def _digits(text: str) -> bool:
    """Whether text is ASCII digits, which fio's strtol reads (str.isdigit() takes "１" too)."""
    return text.isascii() and text.isdigit()


def _number(part: str, spell) -> str:
    part = part.strip()
    if _HEX.fullmatch(part):
        part = str(int(part, 16))
    return spell(str(int(part)) if _digits(part) else part)


def normal(name: str, value: str, spell=lambda v: v) -> tuple[str, str]:
    """(name, value) of one option in the normal form above; spell: the spelling of a size
    (importers.fio.canonical_size) for the options that hold one, else of an integer's size
    postfix (fio reads iodepth=1k as 1024, nrfiles=1KiB as 1000: --parse-only --debug=parse)."""
    name = ALIASES.get(name, name)
    kind = KINDS.get(name)
    if kind in ("bool", "emptybool"):
        lowered = value.strip().lower()
        if _digits(lowered) or (kind == "emptybool" and not lowered):  # fio 3.33 reads no "true" (parse: ret=1)
            value = "0" if _digits(lowered) and int(lowered) == 0 else "1"
    elif kind == "time":
        value = _time(name, value)
    elif kind == "int" and name in BY_DIRECTION:
        parts = value.split(",")[:3]
        parts += [parts[-1]] * (3 - len(parts))
        default = FIO_DEFAULTS.get(name, "").split(",")[0]
        three = [_number(p or default, spell) if (p or default) else "" for p in parts]
        value = three[0] if len(set(three)) == 1 else ",".join(three)
    elif kind == "int":
        value = ",".join(_number(p, spell) for p in value.split(","))
    elif name in VALUE_ALIASES:
        value = VALUE_ALIASES[name].get(value.strip().lower(), value)
    elif name == "rw":  # "rw" and "readwrite" are one mix of sequential reads and writes (fio --cmdhelp=rw)
        mode, colon, rest = value.strip().partition(":")
        value = ("rw" if mode.lower() == "readwrite" else mode) + colon + rest
    else:  # a string option: a size in one spelling, a number with a size postfix as its count
        value = spell(_number(value, lambda v: v) if _HEX.fullmatch(value.strip()) else value)
    if name == "rwmixwrite" and value.isdigit() and int(value) <= 100:  # the rest of the mix is reads
        name, value = "rwmixread", str(100 - int(value))
    if name == "buffered" and value in ("0", "1"):  # "negates direct" (fio --cmdhelp=buffered)
        name, value = "direct", str(1 - int(value))
    return name, value


KEPT = frozenset({"bs", "rw", "ioengine"})  # never dropped: read from a job's name where unstated (bs, rw)


def at_default(name: str, value: str, spell=lambda v: v) -> bool:
    """Whether the option (in normal form) holds fio's default, as if left out (never one of
    FILLED or KEPT)."""
    default = FIO_DEFAULTS.get(name, "0" if KINDS.get(name) == "emptybool" else None)  # unset: off
    return default is not None and name not in FILLED and name not in KEPT and normal(name, default, spell)[1] == value
