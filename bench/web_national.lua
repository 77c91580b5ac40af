-- wrk script of bench/web_national.py: one move of a national game. Every phone (a line of ARBITRU_CODES) sends
-- its slip once, at a random moment spread over ARBITRU_WINDOW seconds, with the idempotency key "m<move>-p<player>"
-- (a retry of the same slip sends the same key). At the end (wrk_report.lua) it prints every receipt (status, stored, seq, player, the
-- worker that answered) and every player whose slip was sent, for the bench's check.
--
-- Environment: ARBITRU_CODES, ARBITRU_GAME, ARBITRU_MOVE, ARBITRU_WINDOW (seconds), ARBITRU_CONNECTIONS (wrk's -c).

local codes_file = os.getenv("ARBITRU_CODES")
local game = os.getenv("ARBITRU_GAME")
local move = os.getenv("ARBITRU_MOVE")
local window = tonumber(os.getenv("ARBITRU_WINDOW"))
local connections = tonumber(os.getenv("ARBITRU_CONNECTIONS"))
dofile(os.getenv("ARBITRU_LUA") .. "/wrk_report.lua")
report_lists = {"receipt", "sent"}


function init(args)
   players, codes, receipt, sent = {}, {}, {}, {}
   count = 0
   for line in io.lines(codes_file) do
      local player, code = line:match("^(%S+) (%S+)$")
      table.insert(players, player)
      table.insert(codes, code)
   end
   path = "/api/games/" .. game .. "/slips"
   -- each connection waits about this long between its slips, so that all are sent within the window
   gap = window * 1000 * connections / #players
   math.randomseed(tonumber(move) * 7919)
end

function delay()
   if count >= #players then
      return 3600 * 1000  -- this phone's share is sent: the connection stays idle until wrk stops
   end
   return math.random() * 2 * gap
end

function request()
   if not verified then
      -- wrk calls request() once to check it before any connection: that call sends nothing
      verified = true
      return wrk.format("GET", "/static/app.css")
   end
   count = count + 1
   if count > #players then
      return wrk.format("GET", "/static/app.css")
   end
   local player = players[count]
   sent[#sent + 1] = player
   local body = '{"move": ' .. move .. ', "position": "H8", "word": "AB"}'
   local headers = {
      ["Authorization"] = "Bearer " .. codes[count],
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = "m" .. move .. "-p" .. player,
   }
   return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
   if status == 200 then
      return  -- an idle connection's GET (a slip's answer is 201, 409 or a refusal)
   end
   local seq = body:match('"seq":%s*(%d+)') or "-"
   local player = body:match('"player":%s*"([^"]*)"') or "-"
   local stored = body:match('"stored":%s*true') and "1" or "0"
   local worker = headers["x-arbitru-worker"] or headers["X-Arbitru-Worker"] or "-"
   receipt[#receipt + 1] = status .. " " .. stored .. " " .. seq .. " " .. player .. " " .. worker
   if #receipt >= #players then
      wrk.thread:stop()  -- every phone has its answer: the move is over before wrk's duration
   end
end
