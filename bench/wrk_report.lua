-- What both wrk scripts of the benches print at the end (loaded with dofile from ARBITRU_LUA): wrk's summary
-- and latency percentiles, then each thread's lists named in report_lists, one "<name> <line>" per item.

threads = {}

function setup(thread)
   table.insert(threads, thread)
   thread:set("id", #threads)
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format("summary %d %d %d %d %d %d %d\n", summary.requests, summary.duration,
      e.connect, e.read, e.write, e.status, e.timeout))
   io.write(string.format("latency %d %d %d %d %d\n", latency:percentile(50), latency:percentile(90),
      latency:percentile(99), latency.max, latency.mean))
   for _, thread in ipairs(threads) do
      for _, name in ipairs(report_lists) do
         for _, line in ipairs(thread:get(name)) do
            io.write(name .. " " .. line .. "\n")
         end
      end
   end
end
