import Dispatch
