print("lab")
