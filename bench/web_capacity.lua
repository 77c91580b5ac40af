-- wrk script of bench/web_capacity.py: every request is one phone's slip for move 1, with its own player code and
-- idempotency key; every receipt is kept (status, seq, player) and printed at the end (wrk_report.lua) for the
-- journal check.
--
-- Set by the bench through the environment: ARBITRU_CODES (a file of "player code" lines), ARBITRU_GAME (the game
-- id), ARBITRU_THREADS (wrk's -t), ARBITRU_RUN (a tag that makes the keys of this run unique).

local codes_file = os.getenv("ARBITRU_CODES")
local game = os.getenv("ARBITRU_GAME")
local nthreads = tonumber(os.getenv("ARBITRU_THREADS"))
local run = os.getenv("ARBITRU_RUN")
dofile(os.getenv("ARBITRU_LUA") .. "/wrk_report.lua")
report_lists = {"receipt"}

function init(args)
   -- this thread's players: every nthreads-th line, so no two threads send for the same player
   players, codes, receipt = {}, {}, {}
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
   receipt[#receipt + 1] = status .. " " .. stored .. " " .. seq .. " " .. player
end
