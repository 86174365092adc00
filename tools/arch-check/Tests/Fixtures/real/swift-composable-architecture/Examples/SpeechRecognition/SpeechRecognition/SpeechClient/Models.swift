import Speech
