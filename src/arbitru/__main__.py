from arbitru.cli import main

main()
