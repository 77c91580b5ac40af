-- wrk script of bench/web_capacity.py: every request is one phone's slip for move 1, with its own player code and
-- idempotency key; every receipt is kept (status, seq, player) and printed by done() for the journal check.
--
-- Set by the bench through the environment: ARBITRU_CODES (a file of "player code" lines), ARBITRU_GAME (the game
-- id), ARBITRU_THREADS (wrk's -t), ARBITRU_RUN (a tag that makes the keys of this run unique).

local codes_file = os.getenv("ARBITRU_CODES")
local game = os.getenv("ARBITRU_GAME")
local nthreads = tonumber(os.getenv("ARBITRU_THREADS"))
local run = os.getenv("ARBITRU_RUN")
local threads = {}

function setup(thread)
   table.insert(threads, thread)
   thread:set("id", #threads)
end

function init(args)
   -- this thread's players: every nthreads-th line, so no two threads send for the same player
   players, codes, receipts = {}, {}, {}
   sent = 0
   local n = 0
   for line in io.lines(codes_file) do
      if n % nthreads == id - 1 then
         local player, code = line:match("^(%S+) (%S+)$")
         table.insert(players, player)
         table.insert(codes, code)
      end
      n = n + 1
   end
   path = "/api/games/" .. game .. "/slips"
end

function request()
   sent = sent + 1
   -- past the last player the same players send again: an on-time slip replaces the earlier one (stored too)
   local k = (sent - 1) % #codes + 1
   local body = '{"move": 1, "position": "H8", "word": "AB"}'
   local headers = {
      ["Authorization"] = "Bearer " .. codes[k],
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = run .. "-" .. id .. "-" .. sent,
   }
   return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
   local seq = body:match('"seq":%s*(%d+)') or "-"
   local player = body:match('"player":%s*"([^"]*)"') or "-"
   local stored = body:match('"stored":%s*true') and "1" or "0"
   receipts[#receipts + 1] = status .. " " .. stored .. " " .. seq .. " " .. player
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format("summary %d %d %d %d %d %d %d\n", summary.requests, summary.duration,
      e.connect, e.read, e.write, e.status, e.timeout))
   io.write(string.format("latency %d %d %d %d %d\n", latency:percentile(50), latency:percentile(90),
      latency:percentile(99), latency.max, latency.mean))
   for _, thread in ipairs(threads) do
      for _, line in ipairs(thread:get("receipts")) do
         io.write("receipt " .. line .. "\n")
      end
   end
end
