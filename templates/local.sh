#!/bin/bash
# Written by aerun for case {{case}} ({{case_file}}): {{runs_count}} run(s).
# Run by hand on this host: bash THIS_SCRIPT [INDEX]   (INDEX picks the run, default 0).
aerun_task={{task_index}}
{{runs}}
exec >"$AERUN_LOG" 2>&1
printf 'start %s %s %s\n' "$(date +%s.%N)" "$(hostname)" {{job_id}} >"$AERUN_STAMPS"
cd {{workdir|q}} || { printf 'end %s 97\n' "$(date +%s.%N)" >>"$AERUN_STAMPS"; exit 97; }
{{env}}
{{launch}}
{{run}}
printf 'end %s %s\n' "$(date +%s.%N)" "$aerun_rc" >>"$AERUN_STAMPS"
exit "$aerun_rc"
